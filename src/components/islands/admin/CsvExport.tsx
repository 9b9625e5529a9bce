import { useMutation } from '@tanstack/react-query';
import type { MouseEvent } from 'react';
import { apiRequest, errorText } from '../../../lib/api-client';
import { isSessionEnded } from '../../../lib/query-client';
import { toast } from '../../../stores/toasts';

interface CsvExportProps {
  /** The list's endpoint, with the filters shown; the file is the same with `format=csv`. */
  endpoint: string;
  /** What the list holds, lower case: "leads". */
  what: string;
}

/** The file name the server gives (`Content-Disposition`), or the list's name. */
function fileName(response: Response, what: string): string {
  const disposition = response.headers.get('Content-Disposition') ?? '';
  return /filename="([^"]+)"/.exec(disposition)?.[1] ?? `${what}.csv`;
}

/**
 * A list's CSV, downloaded through the dashboard's client rather than by the browser alone: a
 * session that has ended sends the page to the login form as every other call does, and a server
 * that cannot answer says why in a toast, where a plain download would only fail in the browser's
 * download list. The link stays a real link, so it can still be opened in a new tab.
 */
export function CsvExport({ endpoint, what }: CsvExportProps) {
  const href = `${endpoint}${endpoint.includes('?') ? '&' : '?'}format=csv`;
  const download = useMutation({
    mutationFn: async () => {
      const response = await apiRequest('GET', href);
      const url = URL.createObjectURL(await response.blob());
      const link = Object.assign(document.createElement('a'), { href: url, download: fileName(response, what) });
      link.click();
      // The download has its own copy once it has started.
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    },
    onError: (failure) => {
      // The login form says the session ended; a toast would say it again, less clearly.
      if (!isSessionEnded(failure)) {
        toast({ title: `Could not export ${what}`, description: errorText(failure), variant: 'destructive' });
      }
    },
  });

  function onClick(event: MouseEvent<HTMLAnchorElement>) {
    // A click with a modifier key asks the browser for something else (a new tab, a saved link).
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (!download.isPending) download.mutate();
  }

  return (
    <a
      href={href}
      download
      onClick={onClick}
      aria-busy={download.isPending || undefined}
      className="rounded text-sm font-semibold text-brand-700 underline underline-offset-2 aria-busy:cursor-progress aria-busy:opacity-70"
    >
      Export {what} (CSV)
    </a>
  );
}
