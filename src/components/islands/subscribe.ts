import { submitForm } from '../../lib/api';
import { NEWSLETTER_FAILURE, NEWSLETTER_SUCCESS } from '../../lib/form-messages';
import { toast } from '../../stores/toasts';

/** Posts a newsletter signup and tells the person how it went; true when it was stored. */
export async function subscribe(url: string, body: Record<string, unknown>): Promise<boolean> {
  try {
    await submitForm(url, body);
    toast({ ...NEWSLETTER_SUCCESS });
    return true;
  } catch {
    toast({ ...NEWSLETTER_FAILURE, variant: 'destructive' });
    return false;
  }
}
