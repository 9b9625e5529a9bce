/**
 * Toasts, raised from any island. State lives outside React (a nanostore), so the Toaster island
 * can hydrate only when the first toast is raised and still show it.
 */
import { atom } from 'nanostores';

/** At most one toast is on screen. */
export const TOAST_LIMIT = 1;
/** A dismissed toast stays in the list, closed, for this long before it is removed. */
export const TOAST_REMOVE_DELAY = 1_000_000;
/** How long a toast is shown. */
export const TOAST_DURATION = 5000;
/** Raised on window when a toast is added: the Toaster island hydrates on it. */
export const TOASTER_EVENT = 'toaster:wanted';

export interface ToastAction {
  label: string;
  /** What a screen reader user is told to do instead of pressing the button. */
  altText: string;
  onClick: () => void;
}

export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  action?: ToastAction;
}

export interface ToastItem extends ToastInput {
  id: string;
  open: boolean;
}

export const $toasts = atom<ToastItem[]>([]);

let counter = 0;
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string) {
  if (removalTimers.has(id)) return;
  removalTimers.set(
    id,
    setTimeout(() => {
      removalTimers.delete(id);
      $toasts.set($toasts.get().filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

export function dismissToast(id?: string): void {
  $toasts.set(
    $toasts.get().map((item) => {
      if (id !== undefined && item.id !== id) return item;
      scheduleRemoval(item.id);
      return { ...item, open: false };
    }),
  );
}

export function toast(input: ToastInput): { id: string; dismiss: () => void } {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  $toasts.set([{ ...input, id, open: true }, ...$toasts.get()].slice(0, TOAST_LIMIT));
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(TOASTER_EVENT));
  return { id, dismiss: () => dismissToast(id) };
}
