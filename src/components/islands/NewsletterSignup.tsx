import { HONEYPOT_FIELD, LIMITS, NewsletterForm } from '../../shared/schemas';
import { SUBSCRIBING } from '../../lib/form-messages';
import { Button } from '../ui/button';
import { Field, HoneypotField, Input } from '../ui/field';
import { useSchemaForm } from '../ui/use-schema-form';
import { subscribe, useToaster } from './form-submit';

/** The newsletter form under each blog post. */
export function NewsletterSignup() {
  useToaster();
  const { register, errors, onSubmit, onFocus, submitting, disabled } = useSchemaForm(
    NewsletterForm,
    { firstName: '', lastName: '', email: '', [HONEYPOT_FIELD]: '' },
    (values) => subscribe('/api/subscribers', { ...values, source: 'newsletter_footer' }),
  );

  return (
    <form
      onSubmit={onSubmit}
      onFocus={onFocus}
      noValidate
      className="relative mt-8 grid gap-4 sm:grid-cols-2"
      aria-label="Newsletter"
    >
      <Field label="First name" error={errors.firstName?.message}>
        {(control) => (
          <Input {...control} autoComplete="given-name" maxLength={LIMITS.name} {...register('firstName')} />
        )}
      </Field>
      <Field label="Last name" error={errors.lastName?.message}>
        {(control) => (
          <Input {...control} autoComplete="family-name" maxLength={LIMITS.name} {...register('lastName')} />
        )}
      </Field>
      <Field label="E-mail" error={errors.email?.message} className="sm:col-span-2">
        {(control) => (
          <Input {...control} type="email" autoComplete="email" maxLength={LIMITS.email} {...register('email')} />
        )}
      </Field>
      <HoneypotField {...register(HONEYPOT_FIELD)} />
      <Button type="submit" size="lg" disabled={disabled} className="justify-self-start">
        {submitting ? SUBSCRIBING : 'Subscribe'}
      </Button>
    </form>
  );
}
