import { BookingForm, HONEYPOT_FIELD, LIMITS } from '../../../shared/schemas';
import type { z } from 'zod';
import { Button } from '../../ui/button';
import { Field, HoneypotField, Input, Textarea } from '../../ui/field';
import { useSchemaForm } from '../../ui/use-schema-form';

export type BookingDetailsValues = z.infer<typeof BookingForm>;

interface BookingDetailsProps {
  /** The chosen call in words ("Tuesday, June 16, 9:30 – 10:00 AM"), none while no time is chosen. */
  chosen?: string;
  /** Books the call with these details; true once it is booked. */
  book: (values: BookingDetailsValues) => Promise<boolean>;
  /** Why the last attempt failed, said in the alert under the button. */
  failure?: string;
}

/**
 * Who the call is with: Name and E-mail, an optional company and note, and Confirm booking. The
 * fields are checked by the schema the server parses them with; what was typed stays when the
 * booking fails (a time just taken, the calendar unreachable), for the next attempt.
 */
export function BookingDetails({ chosen, book, failure }: BookingDetailsProps) {
  const { register, errors, onSubmit, onFocus, submitting, disabled } = useSchemaForm(
    BookingForm,
    { name: '', email: '', company: '', notes: '', [HONEYPOT_FIELD]: '' },
    book,
  );

  return (
    <form onSubmit={onSubmit} onFocus={onFocus} noValidate aria-label="Your details" className="relative grid gap-4">
      <div className="rounded-xl bg-brand-50 px-4 py-3 text-sm ring-1 ring-brand-600/20 ring-inset forced-colors:border">
        <p className="font-semibold text-brand-800">Your call</p>
        <p className="mt-0.5 text-ink-800">{chosen ?? 'Pick a time above.'}</p>
      </div>
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
      <Field label="Note" optional error={errors.notes?.message}>
        {(control) => (
          <Textarea
            {...control}
            rows={3}
            maxLength={LIMITS.notes}
            placeholder="What would you like to talk about?"
            className="min-h-24"
            {...register('notes')}
          />
        )}
      </Field>
      <HoneypotField {...register(HONEYPOT_FIELD)} />
      <Button type="submit" size="lg" disabled={disabled} className="w-full sm:w-auto sm:justify-self-start">
        {submitting ? 'Booking...' : 'Confirm booking'}
      </Button>
      {/* On the page, empty, from the start: a message put into it is announced. */}
      <div role="alert" className="empty:hidden">
        {failure && (
          <p className="rounded-xl bg-danger-50 px-4 py-3 text-sm font-medium text-danger-700 ring-1 ring-danger-700/30 ring-inset">
            {failure}
          </p>
        )}
      </div>
    </form>
  );
}
