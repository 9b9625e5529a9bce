import { useStore } from '@nanostores/react';
import { $toasts, dismissToast, TOAST_DURATION } from '../../stores/toasts';
import { useHydrated } from '../ui/use-hydrated';
import { Toast, ToastAction, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from '../ui/toast';

/** Shows the toasts raised by any island: one at a time, for 5 s, swipe right to dismiss, F8 to reach. */
export function Toaster() {
  const toasts = useStore($toasts);
  // Rendered in the browser only: Radix's viewport carries an inline style the page's CSP forbids in HTML.
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <ToastProvider duration={TOAST_DURATION} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toasts.map(({ id, title, description, variant, action, open }) => (
        <Toast key={id} variant={variant} open={open} onOpenChange={(next) => !next && dismissToast(id)}>
          <div className="grid gap-1">
            <ToastTitle>{title}</ToastTitle>
            {description && <ToastDescription>{description}</ToastDescription>}
          </div>
          {action && (
            <ToastAction altText={action.altText} onClick={action.onClick}>
              {action.label}
            </ToastAction>
          )}
          <ToastClose />
        </Toast>
      ))}
      <ToastViewport label="Notification" />
    </ToastProvider>
  );
}
