import { useState, type FormEvent } from 'react';
import { HONEYPOT_FIELD, LIMITS } from '../../shared/schemas';
import { submitForm } from '../../lib/api';
import { GUIDE_FAILURE, GUIDE_SUCCESS } from '../../lib/form-messages';
import { Button } from '../ui/button';
import { Field, FormAlert, HoneypotField, Input } from '../ui/field';
import { useHydrated } from '../ui/use-hydrated';

/** The Zoho guide request: the browser checks the fields (all required), the lead goes to /api/leads/create. */
export function GuideForm() {
  const [state, setState] = useState<'idle' | 'submitting' | 'success' | 'error'>('idle');
  const hydrated = useHydrated();

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const field = (name: string) => String(new FormData(form).get(name) ?? '').trim();
    setState('submitting');
    try {
      await submitForm('/api/leads/create', {
        name: `${field('firstName')} ${field('lastName')}`,
        email: field('email'),
        source: 'zoho_guide',
        notes: 'Requested the Zoho + Google Workspace integration guide.',
        [HONEYPOT_FIELD]: field(HONEYPOT_FIELD),
      });
      form.reset();
      setState('success');
    } catch {
      // What the person typed stays in the form.
      setState('error');
    }
  }

  return (
    <form onSubmit={onSubmit} className="relative mt-6 grid gap-4" aria-label="Request the Zoho guide">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name">{(control) => <Input {...control} name="firstName" required autoComplete="given-name" maxLength={LIMITS.name} />}</Field>
        <Field label="Last name">{(control) => <Input {...control} name="lastName" required autoComplete="family-name" maxLength={LIMITS.name} />}</Field>
      </div>
      <Field label="E-mail">{(control) => <Input {...control} name="email" type="email" required autoComplete="email" maxLength={LIMITS.email} />}</Field>
      <HoneypotField name={HONEYPOT_FIELD} />
      <Button type="submit" size="lg" disabled={!hydrated || state === 'submitting'} className="justify-self-start">
        {state === 'submitting' ? 'Sending...' : 'Send me the guide'}
      </Button>
      {state === 'success' && <FormAlert tone="success">{GUIDE_SUCCESS}</FormAlert>}
      {state === 'error' && <FormAlert tone="error">{GUIDE_FAILURE}</FormAlert>}
    </form>
  );
}
