import { clsx, type ClassValue } from 'clsx';

/**
 * Joins class names. It does not resolve conflicting utilities: a component's classes and the
 * ones a caller adds must not set the same property.
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
