import * as React from 'react';
import { cn } from '../../lib/cn';

// Edges are drawn with box-shadow (ring), which forced colours (Windows High Contrast) remove: a
// border then takes their place.
const controlClass =
  'block w-full rounded-xl border-0 forced-colors:border bg-white px-4 text-base text-ink-900 shadow-sm ring-1 ring-ink-200 ring-inset placeholder:text-ink-500 focus:ring-2 focus:ring-brand-600 aria-invalid:ring-2 aria-invalid:ring-danger-700';

export function Input({ className, ...props }: React.ComponentProps<'input'>) {
  return <input className={cn(controlClass, 'h-11', className)} {...props} />;
}

export function Textarea({ className, ...props }: React.ComponentProps<'textarea'>) {
  return <textarea className={cn(controlClass, 'min-h-32 py-3', className)} {...props} />;
}

interface FieldProps {
  label: string;
  /** The validation message, shown under the control and announced with it. */
  error?: string;
  /** Optional fields say so in their label. */
  optional?: boolean;
  /** Labels for dark backgrounds. */
  inverse?: boolean;
  className?: string;
  /** Receives the control's id and the props that tie it to its label and error. */
  children: (control: { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string }) => React.ReactNode;
}

/** A label, a control and its error message, wired together for assistive technology. */
export function Field({ label, error, optional = false, inverse = false, className, children }: FieldProps) {
  const id = React.useId();
  const errorId = `${id}-error`;
  return (
    <div className={cn('flex flex-col gap-1.5', className)}>
      <label htmlFor={id} className={cn('text-sm font-semibold', inverse ? 'text-ink-100' : 'text-ink-800')}>
        {label}
        {optional && <span className={cn('font-normal', inverse ? 'text-ink-300' : 'text-ink-600')}> (optional)</span>}
      </label>
      {children({ id, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      {error && (
        <p id={errorId} className={cn('text-sm font-medium', inverse ? 'text-amber-100' : 'text-danger-700')}>
          {error}
        </p>
      )}
    </div>
  );
}

/**
 * The honeypot: a field people never see or reach. Bots that fill every input fill it too,
 * and the server then stores nothing.
 */
export function HoneypotField(props: React.ComponentProps<'input'>) {
  return (
    <div aria-hidden="true" className="absolute -left-[10000px] size-px overflow-hidden">
      <label>
        Website
        <input type="text" tabIndex={-1} autoComplete="off" {...props} />
      </label>
    </div>
  );
}

/** The look of an inline message: green for success, red for failure. */
function messageClass(tone: 'success' | 'error') {
  return cn(
    'rounded-xl px-4 py-3 text-sm font-medium ring-1 ring-inset',
    tone === 'error'
      ? 'bg-danger-50 text-danger-700 ring-danger-700/30'
      : 'bg-brand-50 text-brand-800 ring-brand-600/30',
  );
}

/** An inline message shown with what it is about: polite for success, assertive for failure. */
export function FormAlert({ tone, children }: { tone: 'success' | 'error'; children: React.ReactNode }) {
  return (
    <div role={tone === 'error' ? 'alert' : 'status'} className={messageClass(tone)}>
      {children}
    </div>
  );
}

/**
 * The answer to a form's last submission, if there was one: its success or its failure message.
 * Both live regions are on the page, empty, from the start, and the message is put into one:
 * screen readers announce a change inside a region they already know, where a region added with
 * its text already in it is read by some and not by others. Each submission empties them first,
 * so that the same answer twice is announced twice.
 */
export function FormResult({
  result,
  success,
  failure,
}: {
  result?: 'success' | 'error';
  success: string;
  failure: string;
}) {
  const shown = React.useRef<HTMLParagraphElement>(null);
  // The answer appears under the button, which in a dialog on a phone is the bottom of a scrolling
  // area: brought into view, so that it is seen and not only announced.
  React.useEffect(() => {
    shown.current?.scrollIntoView({ block: 'nearest' });
  }, [result]);
  return (
    <>
      <div role="status" className="empty:hidden">
        {result === 'success' && (
          <p ref={shown} className={messageClass('success')}>
            {success}
          </p>
        )}
      </div>
      <div role="alert" className="empty:hidden">
        {result === 'error' && (
          <p ref={shown} className={messageClass('error')}>
            {failure}
          </p>
        )}
      </div>
    </>
  );
}
