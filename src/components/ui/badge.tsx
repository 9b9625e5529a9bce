import { cva, type VariantProps } from 'class-variance-authority';
import type * as React from 'react';
import { cn } from '../../lib/cn';

const badgeVariants = cva(
  'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
  {
    variants: {
      tone: {
        neutral: 'bg-ink-100 text-ink-700 ring-ink-200',
        success: 'bg-brand-50 text-brand-800 ring-brand-600/30',
        waiting: 'bg-amber-100 text-ink-900 ring-amber-400',
        danger: 'bg-danger-50 text-danger-700 ring-danger-700/30',
      },
    },
    defaultVariants: { tone: 'neutral' },
  },
);

/** A short status word; its text says the status, the colour only repeats it. */
export function Badge({
  className,
  tone,
  ...props
}: React.ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
