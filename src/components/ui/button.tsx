import type * as React from 'react';
import { cn } from '../../lib/cn';
import { buttonVariants, type ButtonVariants } from './button-variants';

export function Button({
  className,
  variant,
  size,
  type = 'button',
  ...props
}: React.ComponentProps<'button'> & ButtonVariants) {
  return <button type={type} className={cn(buttonVariants({ variant, size }), className)} {...props} />;
}
