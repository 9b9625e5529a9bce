import { useStore } from '@nanostores/react';
import { $toast, dismissToast, TOAST_DURATION } from '../../stores/toasts';
import { useHydrated } from '../ui/use-hydrated';
import { Toast, ToastClose, ToastDescription, ToastProvider, ToastTitle, ToastViewport } from '../ui/toast';

/** Shows the toast raised by any island: one at a time, for 5 s, swipe right to dismiss, F8 to reach. */
export function Toaster() {
  const toast = useStore($toast);
  // Rendered in the browser only: Radix's viewport carries an inline style the page's CSP forbids in HTML.
  const hydrated = useHydrated();
  if (!hydrated) return null;
  return (
    <ToastProvider duration={TOAST_DURATION} swipeDirection="right" swipeThreshold={50} label="Notification">
      {toast && (
        <Toast
          key={toast.id}
          variant={toast.variant}
          open={toast.open}
          onOpenChange={(open) => !open && dismissToast(toast.id)}
        >
          <div className="grid gap-1">
            <ToastTitle>{toast.title}</ToastTitle>
            {toast.description && (
              <ToastDescription>
                {toast.description}
                {/* A space, so the two sentences stay apart when the toast is read out as one text. */}
                {toast.note && (
                  <>
                    {' '}
                    <span className="mt-1 block">{toast.note}</span>
                  </>
                )}
              </ToastDescription>
            )}
          </div>
          <ToastClose />
        </Toast>
      )}
      <ToastViewport label="Notification" />
    </ToastProvider>
  );
}
