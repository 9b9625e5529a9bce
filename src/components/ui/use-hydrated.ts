import { useEffect, useState } from 'react';

/**
 * False in the server-rendered HTML, true once the island runs: for what must not be in that HTML
 * (the toaster: Radix's viewport carries an inline style the page's CSP forbids there).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
