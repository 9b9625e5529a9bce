import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { ContactForm as ContactFormSchema, HONEYPOT_FIELD, LIMITS } from '../../shared/schemas';
import { submitForm } from '../../lib/api';
import { CONTACT_FAILURE, CONTACT_SUCCESS } from '../../lib/form-messages';
import { Button } from '../ui/button';
import { useHydrated } from '../ui/use-hydrated';
import { Field, FormAlert, HoneypotField, Input, Textarea } from '../ui/field';

type Values = z.input<typeof ContactFormSchema>;

/** The site's own contact form, used wherever no external form is configured. Each message is a lead. */
export function ContactForm() {
  const form = useForm<Values, unknown, z.output<typeof ContactFormSchema>>({
    resolver: zodResolver(ContactFormSchema),
    defaultValues: { name: '', email: '', company: '', message: '', [HONEYPOT_FIELD]: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const hydrated = useHydrated();
  const [result, setResult] = useState<'success' | 'error'>();

  const onSubmit = form.handleSubmit(async ({ name, email, company, message, website }) => {
    setResult(undefined);
    try {
      await submitForm('/api/leads/create', { name, email, company, notes: message, source: 'contact_form', [HONEYPOT_FIELD]: website });
      form.reset();
      setResult('success');
    } catch {
      setResult('error');
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="relative grid gap-4" aria-label="Contact form">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" error={errors.name?.message}>
          {(control) => <Input {...control} autoComplete="name" maxLength={LIMITS.fullName} {...form.register('name')} />}
        </Field>
        <Field label="E-mail" error={errors.email?.message}>
          {(control) => <Input {...control} type="email" autoComplete="email" maxLength={LIMITS.email} {...form.register('email')} />}
        </Field>
      </div>
      <Field label="Company" optional error={errors.company?.message}>
        {(control) => <Input {...control} autoComplete="organization" maxLength={LIMITS.company} {...form.register('company')} />}
      </Field>
      <Field label="How can we help?" error={errors.message?.message}>
        {(control) => <Textarea {...control} rows={5} maxLength={LIMITS.notes} {...form.register('message')} />}
      </Field>
      <HoneypotField {...form.register(HONEYPOT_FIELD)} />
      <Button type="submit" size="lg" disabled={!hydrated || isSubmitting} className="justify-self-start">
        {isSubmitting ? 'Sending...' : 'Send message'}
      </Button>
      {result === 'success' && <FormAlert tone="success">{CONTACT_SUCCESS}</FormAlert>}
      {result === 'error' && <FormAlert tone="error">{CONTACT_FAILURE}</FormAlert>}
    </form>
  );
}
