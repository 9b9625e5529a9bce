import { FooterSignupForm, HONEYPOT_FIELD, LIMITS } from '../../shared/schemas';
import { SUBSCRIBING } from '../../lib/form-messages';
import { Button } from '../ui/button';
import { Field, HoneypotField, Input } from '../ui/field';
import { useSchemaForm } from '../ui/use-schema-form';
import { subscribe, useToaster } from './form-submit';

/** The footer signup on every page: one name box and an e-mail. */
export function FooterSignup() {
  useToaster();
  const { register, errors, onSubmit, onFocus, submitting, disabled } = useSchemaForm(
    FooterSignupForm,
    { name: '', email: '', [HONEYPOT_FIELD]: '' },
    // The footer sends the full name as firstName and no lastName.
    ({ name, email, website }) =>
      subscribe('/api/newsletter/subscribe', {
        email,
        firstName: name,
        source: 'website_footer',
        [HONEYPOT_FIELD]: website,
      }),
  );

  return (
    <form
      onSubmit={onSubmit}
      onFocus={onFocus}
      noValidate
      className="relative mt-5 grid gap-3"
      aria-label="Newsletter signup"
    >
      <Field label="Name" error={errors.name?.message} inverse>
        {(control) => <Input {...control} autoComplete="name" maxLength={LIMITS.fullName} {...register('name')} />}
      </Field>
      <Field label="E-mail" error={errors.email?.message} inverse>
        {(control) => (
          <Input {...control} type="email" autoComplete="email" maxLength={LIMITS.email} {...register('email')} />
        )}
      </Field>
      <HoneypotField {...register(HONEYPOT_FIELD)} />
      <Button type="submit" variant="inverse" disabled={disabled} className="mt-1 justify-self-start">
        {submitting ? SUBSCRIBING : 'Subscribe'}
      </Button>
    </form>
  );
}
