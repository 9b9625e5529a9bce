import { useEffect, useState } from 'react';

/**
 * False in the server-rendered HTML, true once the island runs. A submit button disabled until
 * then cannot send a form the page is not ready to handle; what was typed meanwhile is kept.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
