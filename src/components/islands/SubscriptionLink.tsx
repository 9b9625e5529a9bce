import { useCallback, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { ApiError, apiRequest } from '../../lib/api';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';
import { useHydrated } from '../ui/use-hydrated';

/** The endpoint each page POSTs the link's token to, as JSON `{ token }`. */
const ENDPOINTS = {
  confirm: '/api/newsletter/confirm',
  unsubscribe: '/api/newsletter/unsubscribe',
} as const;

type Action = keyof typeof ENDPOINTS;

/** How a POST of the link's token ended, by what the endpoint answered. */
type Outcome = 'done' | 'invalid' | 'expired' | 'gone' | 'unavailable';

type Step = { name: 'ready' } | { name: 'sending' } | { name: 'finished'; outcome: Outcome };

/** 400 and 422 a malformed or forged link, 410 an expired one, 404 a subscription that no longer exists; anything else (503, 429, no answer at all) may pass on a retry. */
function outcomeOf(error: unknown): Outcome {
  if (!(error instanceof ApiError)) return 'unavailable';
  if (error.status === 400 || error.status === 422) return 'invalid';
  if (error.status === 410) return 'expired';
  if (error.status === 404) return 'gone';
  return 'unavailable';
}

interface Message {
  title: string;
  body: ReactNode;
  /** Good news is a status; a failure an alert. */
  tone: 'success' | 'error';
}

const footerForm = (
  <a href="#footer-newsletter" className="font-semibold underline underline-offset-2">
    the form at the bottom of this page
  </a>
);

function messages(action: Action, email: string): Record<Outcome, Message> {
  const writeToUs = (
    <>
      write to us at{' '}
      <a href={`mailto:${email}`} className="font-semibold underline underline-offset-2">
        {email}
      </a>
    </>
  );
  const unavailable = {
    title:
      action === 'confirm'
        ? 'We could not confirm your subscription just now'
        : 'We could not unsubscribe you just now',
    body: 'The connection or our server had a problem. Please try again in a moment.',
    tone: 'error',
  } as const;
  if (action === 'confirm') {
    return {
      done: {
        title: 'Your subscription is confirmed',
        body: 'Thank you! Our newsletter will arrive at this address, and every issue has a link to unsubscribe.',
        tone: 'success',
      },
      invalid: {
        title: 'This confirmation link is not valid',
        body: 'Part of it may be missing. Open the link from the e-mail again, or copy the whole address into your browser.',
        tone: 'error',
      },
      expired: {
        title: 'This confirmation link has expired',
        body: (
          <>
            Confirmation links work for a limited time. Subscribe again with {footerForm} and we will send you a new
            one.
          </>
        ),
        tone: 'error',
      },
      gone: {
        title: 'We cannot find this subscription',
        body: <>It may have been removed since the e-mail was sent. Subscribe again with {footerForm}.</>,
        tone: 'error',
      },
      unavailable,
    };
  }
  return {
    done: {
      title: 'You are unsubscribed',
      body: <>You will not receive our newsletter any more. Changed your mind? Subscribe again with {footerForm}.</>,
      tone: 'success',
    },
    invalid: {
      title: 'This unsubscribe link is not valid',
      body: <>Part of it may be missing. Open the link from the e-mail again, or {writeToUs} and we will remove you.</>,
      tone: 'error',
    },
    expired: {
      title: 'This unsubscribe link has expired',
      body: <>Use the link in a more recent e-mail, or {writeToUs} and we will remove you.</>,
      tone: 'error',
    },
    gone: {
      title: 'This address is not subscribed',
      body: 'There is no subscription for this link any more, so you will not receive our newsletter.',
      tone: 'success',
    },
    unavailable,
  };
}

/**
 * What the page behind an e-mailed newsletter link does: it POSTs the link's token to
 * /api/newsletter/confirm (at once) or /api/newsletter/unsubscribe (when the person presses the
 * button), then says how it went and what to do next. A GET of the page changes nothing, so mail
 * scanners that open links confirm no one.
 */
export function SubscriptionLink({ action, contactEmail }: { action: Action; contactEmail: string }) {
  const [step, setStep] = useState<Step>(action === 'confirm' ? { name: 'sending' } : { name: 'ready' });
  const hydrated = useHydrated();
  const heading = useRef<HTMLHeadingElement>(null);

  const send = useCallback(async () => {
    const token = new URLSearchParams(window.location.search).get('token');
    if (!token) {
      setStep({ name: 'finished', outcome: 'invalid' });
      return;
    }
    setStep({ name: 'sending' });
    try {
      await apiRequest('POST', ENDPOINTS[action], { token });
      setStep({ name: 'finished', outcome: 'done' });
    } catch (error) {
      setStep({ name: 'finished', outcome: outcomeOf(error) });
    }
  }, [action]);

  // The confirmation is the page's one purpose: it starts as soon as the page runs.
  const started = useRef(false);
  useEffect(() => {
    if (action !== 'confirm' || started.current) return;
    started.current = true;
    void send();
  }, [action, send]);

  // The button that was pressed is gone: the outcome takes the focus, so keyboard and screen reader users land on it.
  useEffect(() => {
    if (step.name === 'finished') heading.current?.focus();
  }, [step]);

  const message = step.name === 'finished' ? messages(action, contactEmail)[step.outcome] : undefined;
  const sending = step.name === 'sending';
  const canSend = step.name === 'ready' || (step.name === 'finished' && step.outcome === 'unavailable');

  return (
    <div className="grid justify-items-center gap-6">
      {/* Present from the start, so what it says next is announced. */}
      <div role="status" className="empty:hidden">
        {sending && (
          <p className="text-lg text-ink-600">
            {action === 'confirm' ? 'Confirming your subscription...' : 'Unsubscribing...'}
          </p>
        )}
        {message?.tone === 'success' && <OutcomeBox message={message} heading={heading} />}
      </div>
      {message?.tone === 'error' && (
        <div role="alert">
          <OutcomeBox message={message} heading={heading} />
        </div>
      )}
      {step.name === 'ready' && (
        <p className="max-w-xl text-lg text-ink-600">
          Press the button to stop receiving our newsletter at the address this link was sent to.
        </p>
      )}
      {canSend && (
        <Button size="lg" disabled={!hydrated} onClick={() => void send()}>
          {step.name === 'finished' ? 'Try again' : 'Unsubscribe'}
        </Button>
      )}
    </div>
  );
}

function OutcomeBox({ message, heading }: { message: Message; heading: RefObject<HTMLHeadingElement | null> }) {
  return (
    <div
      className={cn(
        'max-w-xl rounded-(--radius-card) px-6 py-5 text-left ring-1 ring-inset',
        message.tone === 'error' ? 'bg-danger-50 ring-danger-700/30' : 'bg-brand-50 ring-brand-600/30',
      )}
    >
      <h2
        ref={heading}
        tabIndex={-1}
        className={cn('text-xl font-bold', message.tone === 'error' ? 'text-danger-700' : 'text-brand-800')}
      >
        {message.title}
      </h2>
      <p className="mt-2 text-ink-700">{message.body}</p>
    </div>
  );
}
