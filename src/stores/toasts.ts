/**
 * The toast, raised from any island. State lives outside React (a nanostore), so the Toaster island
 * can hydrate only when the first toast is raised and still show it. One toast at a time: a new one
 * takes the place of the last.
 */
import { atom } from 'nanostores';

/** How long a toast is shown. */
export const TOAST_DURATION = 5000;
/** Raised on window when a toast is added: the Toaster island hydrates on it. */
export const TOASTER_EVENT = 'toaster:wanted';
/** A dismissed toast stays, closed, this long before it is removed: its exit plays out on the closed item. */
const REMOVE_DELAY = 1_000_000;

export interface ToastInput {
  title: string;
  description?: string;
  /** A second line under the description, for what the person should do next. */
  note?: string;
  variant?: 'default' | 'destructive';
}

/** The toast on screen, or the last one, closed, until it is removed. */
export const $toast = atom<(ToastInput & { id: number; open: boolean }) | undefined>();

let lastId = 0;

export function toast(input: ToastInput): void {
  lastId += 1;
  $toast.set({ ...input, id: lastId, open: true });
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(TOASTER_EVENT));
}

/** Closes the toast with this id; it is removed later, unless a new one has taken its place by then. */
export function dismissToast(id: number): void {
  const current = $toast.get();
  if (current?.id !== id || !current.open) return;
  $toast.set({ ...current, open: false });
  setTimeout(() => {
    if ($toast.get()?.id === id) $toast.set(undefined);
  }, REMOVE_DELAY);
}
