import { useQuery } from '@tanstack/react-query';
import { errorText } from '../../../lib/api-client';
import type { NewsletterPage } from '../../../shared/api-responses';
import { FormAlert } from '../../ui/field';
import { NewsletterItemCard } from './NewsletterItem';
import { plural } from './record-text';

/** How often the page is fetched again while a mailing is under way, so its progress moves. */
const SENDING_REFRESH_MS = 5000;

/** Who gets a mailing and how fast it goes, under the section's heading. */
function Recipients({ page }: { page: NewsletterPage }) {
  const rate =
    page.ratePerMinute === null ? 'no sending limit' : `at most ${plural(page.ratePerMinute, 'e-mail')} a minute`;
  return (
    <div className="grid gap-1 text-sm text-ink-600">
      <p>
        {plural(page.confirmed, 'confirmed subscriber')} · {rate}
      </p>
      {page.autoSendHours !== undefined && (
        <p>
          Automatic sending after {plural(page.autoSendHours, 'hour')} is on (NEWSLETTER_AUTO_SEND_HOURS): each item not
          sent yet says when it goes out, unless you choose &ldquo;Don&rsquo;t send&rdquo;.
        </p>
      )}
    </div>
  );
}

/**
 * Every published issue and post, those not sent yet first: preview one, send a test, send it to
 * the confirmed subscribers or decline it; the others say how their mailing went.
 */
export function Newsletter() {
  const query = useQuery<NewsletterPage>({
    queryKey: ['/api/admin/newsletter'],
    refetchInterval: ({ state }) =>
      state.data?.items.some((item) => item.status === 'sending') ? SENDING_REFRESH_MS : false,
  });
  const page = query.data;
  return (
    <section aria-labelledby="newsletter-title" className="grid min-w-0 gap-4">
      <div className="grid gap-1">
        <h3 id="newsletter-title" className="text-xl font-bold">
          Newsletter
        </h3>
        {page && <Recipients page={page} />}
      </div>
      {query.isPending && <p className="text-ink-600">Loading…</p>}
      {query.error && <FormAlert tone="error">The newsletter could not be loaded: {errorText(query.error)}</FormAlert>}
      {page &&
        (page.items.length === 0 ? (
          <p className="rounded-(--radius-card) bg-ink-50 p-6 text-ink-700 ring-1 ring-ink-100">
            Nothing published yet. Newsletter issues and blog posts appear here once they are on the site.
          </p>
        ) : (
          <ul aria-label="Issues and posts" className="grid gap-4">
            {page.items.map((item) => (
              <li key={item.id} className="min-w-0">
                <NewsletterItemCard item={item} page={page} />
              </li>
            ))}
          </ul>
        ))}
    </section>
  );
}
