import { GuideForm as GuideFormSchema, HONEYPOT_FIELD, LIMITS } from '../../shared/schemas';
import { GUIDE_FAILURE, GUIDE_SUCCESS } from '../../lib/form-messages';
import { Button } from '../ui/button';
import { Field, FormResult, HoneypotField, Input } from '../ui/field';
import { useSchemaForm } from '../ui/use-schema-form';
import { useSubmitResult } from './form-submit';

/**
 * The Zoho guide request: the lead goes to /api/leads/create. The browser checks the fields first
 * (all required, an e-mail input), as the specification asks, so this form alone keeps its validation on.
 */
export function GuideForm() {
  const { result, post } = useSubmitResult();
  const { register, errors, onSubmit, onFocus, submitting, disabled } = useSchemaForm(
    GuideFormSchema,
    { firstName: '', lastName: '', email: '', [HONEYPOT_FIELD]: '' },
    ({ firstName, lastName, email, website }) =>
      post('/api/leads/create', {
        name: `${firstName} ${lastName}`,
        email,
        source: 'zoho_guide',
        notes: 'Requested the Zoho + Google Workspace integration guide.',
        [HONEYPOT_FIELD]: website,
      }),
  );

  return (
    <form
      onSubmit={onSubmit}
      onFocus={onFocus}
      className="relative mt-6 grid gap-4"
      aria-label="Request the Zoho guide"
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="First name" error={errors.firstName?.message}>
          {(control) => (
            <Input {...control} required autoComplete="given-name" maxLength={LIMITS.name} {...register('firstName')} />
          )}
        </Field>
        <Field label="Last name" error={errors.lastName?.message}>
          {(control) => (
            <Input {...control} required autoComplete="family-name" maxLength={LIMITS.name} {...register('lastName')} />
          )}
        </Field>
      </div>
      <Field label="E-mail" error={errors.email?.message}>
        {(control) => (
          <Input
            {...control}
            type="email"
            required
            autoComplete="email"
            maxLength={LIMITS.email}
            {...register('email')}
          />
        )}
      </Field>
      <HoneypotField {...register(HONEYPOT_FIELD)} />
      <Button type="submit" size="lg" disabled={disabled} className="justify-self-start">
        {submitting ? 'Sending...' : 'Send me the guide'}
      </Button>
      <FormResult result={result} success={GUIDE_SUCCESS} failure={GUIDE_FAILURE} />
    </form>
  );
}
