import { atom } from 'nanostores';

/** Whether the contact dialog is open. Static buttons and islands open it through this one store. */
export const $contactOpen = atom(false);

export function openContact(): void {
  $contactOpen.set(true);
}

export function closeContact(): void {
  $contactOpen.set(false);
}
