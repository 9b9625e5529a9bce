import { useState } from 'react';

/**
 * What the owner typed in the dashboard's fields, by field. It outlives the dashboard: when a call
 * finds the session ended, the page returns to the login form, and once logged in again the
 * fields show what was typed. Logging out forgets it.
 */
const drafts = new Map<string, string>();

/** A text field's value, as `useState` gives it, kept under `key` while the session lasts. */
export function useDraft(key: string): [string, (value: string) => void] {
  const [value, setValue] = useState(() => drafts.get(key) ?? '');
  function update(next: string) {
    setValue(next);
    if (next) drafts.set(key, next);
    else drafts.delete(key);
  }
  return [value, update];
}

/** Forgets every draft: what was typed does not stay in memory once the owner has logged out. */
export function forgetDrafts(): void {
  drafts.clear();
}
