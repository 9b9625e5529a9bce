import { useRef } from 'react';
import { ContactForm as ContactFormSchema, HONEYPOT_FIELD, LIMITS } from '../../shared/schemas';
import { CONTACT_FAILURE, CONTACT_SUCCESS } from '../../lib/form-messages';
import { Button } from '../ui/button';
import { Field, FormResult, HoneypotField, Input, Textarea } from '../ui/field';
import { useSchemaForm } from '../ui/use-schema-form';
import { useSubmitResult } from './form-submit';

/** The site's own contact form, used wherever no external form is configured. Each message is a lead. */
export function ContactForm() {
  const form = useRef<HTMLFormElement>(null);
  const { result, post } = useSubmitResult(form);
  const { register, errors, onSubmit, onFocus, submitting, disabled } = useSchemaForm(
    ContactFormSchema,
    { name: '', email: '', company: '', message: '', [HONEYPOT_FIELD]: '' },
    ({ name, email, company, message, website }) =>
      post('/api/leads/create', {
        name,
        email,
        company,
        notes: message,
        source: 'contact_form',
        [HONEYPOT_FIELD]: website,
      }),
  );

  return (
    <form
      ref={form}
      onSubmit={onSubmit}
      onFocus={onFocus}
      noValidate
      className="relative grid gap-4"
      aria-label="Contact form"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Name" error={errors.name?.message}>
          {(control) => <Input {...control} autoComplete="name" maxLength={LIMITS.fullName} {...register('name')} />}
        </Field>
        <Field label="E-mail" error={errors.email?.message}>
          {(control) => (
            <Input {...control} type="email" autoComplete="email" maxLength={LIMITS.email} {...register('email')} />
          )}
        </Field>
      </div>
      <Field label="Company" optional error={errors.company?.message}>
        {(control) => (
          <Input {...control} autoComplete="organization" maxLength={LIMITS.company} {...register('company')} />
        )}
      </Field>
      <Field label="How can we help?" error={errors.message?.message}>
        {(control) => <Textarea {...control} rows={5} maxLength={LIMITS.notes} {...register('message')} />}
      </Field>
      <HoneypotField {...register(HONEYPOT_FIELD)} />
      <Button type="submit" size="lg" disabled={disabled} className="justify-self-start">
        {submitting ? 'Sending...' : 'Send message'}
      </Button>
      <FormResult result={result} success={CONTACT_SUCCESS} failure={CONTACT_FAILURE} />
    </form>
  );
}
