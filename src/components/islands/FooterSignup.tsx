import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { FooterSignupForm, HONEYPOT_FIELD, LIMITS } from '../../shared/schemas';
import { SUBSCRIBING } from '../../lib/form-messages';
import { Button } from '../ui/button';
import { useHydrated } from '../ui/use-hydrated';
import { Field, HoneypotField, Input } from '../ui/field';
import { subscribe } from './subscribe';

type Values = z.input<typeof FooterSignupForm>;

/** The footer signup on every page: one name box and an e-mail. */
export function FooterSignup() {
  const form = useForm<Values, unknown, z.output<typeof FooterSignupForm>>({ resolver: zodResolver(FooterSignupForm), defaultValues: { name: '', email: '', [HONEYPOT_FIELD]: '' } });
  const { errors, isSubmitting } = form.formState;
  const hydrated = useHydrated();

  const onSubmit = form.handleSubmit(async ({ name, email, website }) => {
    // The footer sends the full name as firstName and no lastName.
    const stored = await subscribe('/api/newsletter/subscribe', { email, firstName: name, source: 'website_footer', [HONEYPOT_FIELD]: website });
    if (stored) form.reset();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="relative mt-5 grid gap-3" aria-label="Newsletter signup">
      <Field label="Name" error={errors.name?.message} inverse>
        {(control) => <Input {...control} autoComplete="name" maxLength={LIMITS.fullName} {...form.register('name')} />}
      </Field>
      <Field label="E-mail" error={errors.email?.message} inverse>
        {(control) => <Input {...control} type="email" autoComplete="email" maxLength={LIMITS.email} {...form.register('email')} />}
      </Field>
      <HoneypotField {...form.register(HONEYPOT_FIELD)} />
      <Button type="submit" variant="inverse" disabled={!hydrated || isSubmitting} className="mt-1 justify-self-start">
        {isSubmitting ? SUBSCRIBING : 'Subscribe'}
      </Button>
    </form>
  );
}
