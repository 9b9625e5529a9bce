/**
 * How a form's values reach the API and how the person hears back: the newsletter forms with a
 * toast, the lead forms (contact, guide) with an alert inside the form. Both say whether the
 * submission was stored, which is when useSchemaForm empties the form.
 */
import { useEffect, useState, type RefObject } from 'react';
import { submitForm } from '../../lib/api-client';
import { NEWSLETTER_CHECK_INBOX, NEWSLETTER_FAILURE, NEWSLETTER_SUCCESS } from '../../lib/form-messages';
import { toast, TOASTER_EVENT } from '../../stores/toasts';

/**
 * Brings the toaster (which loads with the first toast) as soon as a newsletter form is live, so
 * that its script is there before the answer: a connection that drops after the form loaded would
 * otherwise keep the failure toast from ever showing.
 */
export function useToaster(): void {
  useEffect(() => {
    dispatchEvent(new Event(TOASTER_EVENT));
  }, []);
}

/** Posts a newsletter signup and tells the person how it went in a toast; true when it was stored. */
export async function subscribe(url: string, body: Record<string, unknown>): Promise<boolean> {
  try {
    await submitForm(url, body);
    toast({ ...NEWSLETTER_SUCCESS, note: NEWSLETTER_CHECK_INBOX });
    return true;
  } catch {
    toast({ ...NEWSLETTER_FAILURE, variant: 'destructive' });
    return false;
  }
}

/**
 * The outcome of a form's last submission, for its alert, and `post`, which sends one (true when
 * stored). `form` is a ref to the form: in a dialog, the outcome is forgotten when the dialog
 * closes, so that it opens again on the form alone, not on the answer to an earlier message.
 */
export function useSubmitResult(form?: RefObject<HTMLFormElement | null>) {
  const [result, setResult] = useState<'success' | 'error'>();
  useEffect(() => {
    const dialog = form?.current?.closest('dialog');
    if (!dialog) return;
    const forget = () => setResult(undefined);
    dialog.addEventListener('close', forget);
    return () => dialog.removeEventListener('close', forget);
  }, [form]);
  async function post(url: string, body: Record<string, unknown>): Promise<boolean> {
    setResult(undefined);
    try {
      await submitForm(url, body);
      setResult('success');
      return true;
    } catch {
      setResult('error');
      return false;
    }
  }
  return { result, post };
}
