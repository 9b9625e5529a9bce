import { useQuery } from '@tanstack/react-query';
import { useMemo, type SyntheticEvent } from 'react';
import { errorText } from '../../../lib/api-client';
import type { NewsletterPreview } from '../../../shared/api-responses';
import { FormAlert } from '../../ui/field';
import { putStylesBack, takeStylesOut } from './mail-frame';

/**
 * The HTML part in a frame that runs no script (a sandbox without allow-scripts); allow-same-origin
 * lets this page reach its document to put the styles back (mail-frame.ts). A link opens in a new
 * tab rather than in the frame, where the page's policy would refuse it.
 */
function MailFrame({ html, title }: { html: string; title: string }) {
  const mail = useMemo(() => takeStylesOut(html), [html]);

  function loaded(event: SyntheticEvent<HTMLIFrameElement>) {
    const frame = event.currentTarget;
    const document = frame.contentDocument;
    if (!document) return;
    putStylesBack(document, mail.sheets);
    for (const link of document.querySelectorAll('a[href]'))
      link.addEventListener('click', (click) => {
        click.preventDefault();
        window.open(link.getAttribute('href') ?? '', '_blank', 'noopener');
      });
    // As tall as the message, so the page scrolls rather than a box within it.
    frame.style.height = `${document.documentElement.scrollHeight}px`;
  }

  return (
    <iframe
      title={title}
      sandbox="allow-same-origin"
      srcDoc={mail.html}
      onLoad={loaded}
      className="h-96 w-full rounded-lg bg-white ring-1 ring-ink-100"
    />
  );
}

/** An unsent item's e-mail as a subscriber gets it: subject, HTML part, plain-text part and headers. Fetched when shown. */
export function MailPreview({ id, path }: { id: string; path: string }) {
  const preview = useQuery<NewsletterPreview>({ queryKey: [path] });
  const mail = preview.data;
  return (
    <div id={id} className="grid min-w-0 gap-3 rounded-(--radius-card) bg-ink-50 p-4 ring-1 ring-ink-100">
      {preview.isPending && <p className="text-sm text-ink-600">Loading the preview…</p>}
      {preview.error && <FormAlert tone="error">The preview could not be loaded: {errorText(preview.error)}</FormAlert>}
      {mail && (
        <>
          <p className="text-sm wrap-anywhere">
            <span className="font-semibold text-ink-600">Subject:</span> {mail.subject}
          </p>
          <MailFrame html={mail.html} title={`The e-mail “${mail.subject}”`} />
          <details>
            <summary className="cursor-pointer rounded text-sm font-semibold text-brand-700">Plain-text part</summary>
            <pre className="mt-2 rounded-lg bg-white p-3 font-mono text-xs wrap-anywhere whitespace-pre-wrap text-ink-900 ring-1 ring-ink-100">
              {mail.text}
            </pre>
          </details>
          {Object.keys(mail.headers).length > 0 && (
            <details>
              <summary className="cursor-pointer rounded text-sm font-semibold text-brand-700">Headers</summary>
              <dl className="mt-2 grid gap-x-4 gap-y-1 text-xs sm:grid-cols-[auto_minmax(0,1fr)]">
                {Object.entries(mail.headers).map(([name, value]) => (
                  <div key={name} className="contents">
                    <dt className="font-semibold text-ink-600">{name}</dt>
                    <dd className="font-mono wrap-anywhere text-ink-900">{value}</dd>
                  </div>
                ))}
              </dl>
            </details>
          )}
        </>
      )}
    </div>
  );
}
