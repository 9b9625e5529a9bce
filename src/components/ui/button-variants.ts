import { cva, type VariantProps } from 'class-variance-authority';

/** The one family of buttons, shared by static components and islands. */
export const buttonVariants = cva(
  // forced-colors:border: with forced colours a button's fill and ring are gone; its border shows it.
  'inline-flex items-center justify-center gap-2 rounded-full text-center font-semibold whitespace-nowrap large-text:whitespace-normal forced-colors:border transition-[background-color,box-shadow,color,transform] duration-150 focus-visible:outline-3 focus-visible:outline-offset-2 disabled:pointer-events-none disabled:opacity-60 motion-safe:active:translate-y-px',
  {
    variants: {
      variant: {
        primary: 'bg-brand-700 text-white shadow-sm hover:bg-brand-800',
        secondary: 'bg-white text-ink-900 ring-1 ring-ink-200 ring-inset hover:bg-ink-50 hover:ring-ink-300',
        inverse: 'bg-white text-ink-900 hover:bg-brand-50',
        ghost: 'text-ink-800 hover:bg-ink-100',
        outlineInverse: 'text-white ring-1 ring-white/40 ring-inset hover:bg-white/10',
      },
      size: {
        sm: 'min-h-9 px-4 text-sm',
        md: 'min-h-11 px-5 text-[0.95rem]',
        lg: 'min-h-13 px-7 text-base',
      },
    },
    defaultVariants: { variant: 'primary', size: 'md' },
  },
);

export type ButtonVariants = VariantProps<typeof buttonVariants>;
