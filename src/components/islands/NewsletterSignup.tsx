import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { HONEYPOT_FIELD, LIMITS, NewsletterForm } from '../../shared/schemas';
import { SUBSCRIBING } from '../../lib/form-messages';
import { Button } from '../ui/button';
import { useHydrated } from '../ui/use-hydrated';
import { Field, HoneypotField, Input } from '../ui/field';
import { subscribe } from './subscribe';

type Values = z.input<typeof NewsletterForm>;

/** The newsletter form under each blog post. */
export function NewsletterSignup() {
  const form = useForm<Values, unknown, z.output<typeof NewsletterForm>>({
    resolver: zodResolver(NewsletterForm),
    defaultValues: { firstName: '', lastName: '', email: '', [HONEYPOT_FIELD]: '' },
  });
  const { errors, isSubmitting } = form.formState;
  const hydrated = useHydrated();

  const onSubmit = form.handleSubmit(async (values) => {
    const stored = await subscribe('/api/subscribers', { ...values, source: 'newsletter_footer' });
    if (stored) form.reset();
  });

  return (
    <form onSubmit={onSubmit} noValidate className="relative mt-8 grid gap-4 sm:grid-cols-2" aria-label="Newsletter">
      <Field label="First name" error={errors.firstName?.message}>
        {(control) => <Input {...control} autoComplete="given-name" maxLength={LIMITS.name} {...form.register('firstName')} />}
      </Field>
      <Field label="Last name" error={errors.lastName?.message}>
        {(control) => <Input {...control} autoComplete="family-name" maxLength={LIMITS.name} {...form.register('lastName')} />}
      </Field>
      <Field label="E-mail" error={errors.email?.message} className="sm:col-span-2">
        {(control) => <Input {...control} type="email" autoComplete="email" maxLength={LIMITS.email} {...form.register('email')} />}
      </Field>
      <HoneypotField {...form.register(HONEYPOT_FIELD)} />
      <Button type="submit" size="lg" disabled={!hydrated || isSubmitting} className="justify-self-start">
        {isSubmitting ? SUBSCRIBING : 'Subscribe'}
      </Button>
    </form>
  );
}
