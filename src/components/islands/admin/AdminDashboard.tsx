import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { apiRequest, errorText } from '../../../lib/api-client';
import { onSessionEnd, queryClient } from '../../../lib/query-client';
import type { Overview } from '../../../shared/api-responses';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/field';
import { Campaigns } from './Campaigns';
import { Delivery, DeliveryWarning } from './Delivery';
import { ExternalDashboard } from './ExternalDashboard';
import { loadChart } from './Chart';
import { Figures } from './Figures';
import { Leads } from './Leads';
import { Newsletter } from './Newsletter';
import { Outbox } from './Outbox';
import { SectionMenu } from './SectionMenu';
import { Spam } from './Spam';
import { Subscribers } from './Subscribers';
import { forgetDrafts } from './use-draft';
import { useSections } from './use-sections';
import { Visits } from './Visits';

/** The sections in the order of the page and its menu, those the owner opens daily first; each id is its address (`#leads`). */
const SECTIONS = [
  { id: 'visits', label: 'Visits' },
  { id: 'leads', label: 'Leads' },
  { id: 'figures', label: 'Figures' },
  { id: 'campaigns', label: 'Campaigns' },
  { id: 'spam', label: 'Spam' },
  { id: 'subscribers', label: 'Subscribers' },
  { id: 'newsletter', label: 'Newsletter' },
  { id: 'outbox', label: 'Outbox' },
  { id: 'delivery', label: 'Delivery' },
  { id: 'external-dashboard', label: 'External dashboard' },
] as const;

type SectionId = (typeof SECTIONS)[number]['id'];

/** The sections shown: the external dashboard only when one is configured, never as an empty section. */
const SHOWN = {
  withExternalDashboard: SECTIONS,
  withoutExternalDashboard: SECTIONS.filter((section) => section.id !== 'external-dashboard'),
};
const SHOWN_IDS = {
  withExternalDashboard: SHOWN.withExternalDashboard.map((section) => section.id),
  withoutExternalDashboard: SHOWN.withoutExternalDashboard.map((section) => section.id),
};

/** The sections of the page and its menu for this site's settings (the same lists each time, for the hooks that keep them). */
export function shownSections(externalDashboardUrl: string | undefined) {
  const shown = externalDashboardUrl ? 'withExternalDashboard' : 'withoutExternalDashboard';
  return { sections: SHOWN[shown], ids: SHOWN_IDS[shown] };
}

interface DashboardProps {
  /** The address of a dashboard kept elsewhere, framed in a section of its own; none when unset. */
  externalDashboardUrl?: string;
  /** The owner logged out (here, or everywhere). */
  onLogout: () => void;
  /** A call found the session over (ended elsewhere, expired, or its password changed). */
  onSessionEnd: () => void;
}

/**
 * The owner's dashboard, loaded by the admin page once the session is good: the login form
 * never downloads the data layer, the tables or the chart. One file per section sits beside it.
 */
export default function AdminDashboard(props: DashboardProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <Dashboard {...props} />
    </QueryClientProvider>
  );
}

function Dashboard({ externalDashboardUrl, onLogout, onSessionEnd: onEnd }: DashboardProps) {
  const client = useQueryClient();
  const overview = useQuery<Overview>({ queryKey: ['/api/admin/overview'] });
  const { sections, ids } = shownSections(externalDashboardUrl);
  const current = useSections(ids);
  // The chart's code downloads while the figures are on their way.
  useEffect(() => void loadChart(), []);
  // Data the server no longer lets this browser read is not kept on screen or in memory; what the
  // owner typed is, for when they log in again.
  useEffect(
    () =>
      onSessionEnd(() => {
        client.clear();
        onEnd();
      }),
    [client, onEnd],
  );

  async function logout(everywhere = false) {
    if (everywhere && !window.confirm('Log out every browser where you are logged in, this one included?')) return;
    try {
      await apiRequest('POST', '/api/admin/logout', everywhere ? { everywhere } : {});
    } finally {
      // Nothing the owner saw or typed stays in memory once they have logged out.
      client.clear();
      forgetDrafts();
      onLogout();
    }
  }

  const data = overview.data;
  const content: Record<SectionId, ReactNode> = {
    visits: data && <Visits today={data.today} />,
    leads: <Leads initial={data?.leads} />,
    figures: data && <Figures data={data} />,
    campaigns: data && <Campaigns summary={data.campaigns} />,
    spam: <Spam held={data?.spam.held} />,
    subscribers: <Subscribers initial={data?.subscribers} />,
    newsletter: <Newsletter />,
    outbox: <Outbox counts={data?.outbox} />,
    delivery: data && <Delivery setup={data.delivery} outbox={data.outbox} />,
    'external-dashboard': externalDashboardUrl && <ExternalDashboard url={externalDashboardUrl} />,
  };
  return (
    <div className="grid min-w-0 gap-6">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h2 className="text-2xl font-extrabold tracking-tight">Dashboard</h2>
        <div className="flex flex-wrap gap-3">
          <Button variant="secondary" onClick={() => void logout(true)}>
            Log out everywhere
          </Button>
          <Button variant="secondary" onClick={() => void logout()}>
            Logout
          </Button>
        </div>
      </div>
      {data && <DeliveryWarning setup={data.delivery} />}
      {overview.isPending && <p className="text-ink-600">Loading the figures…</p>}
      {overview.error && (
        <FormAlert tone="error">The figures could not be loaded: {errorText(overview.error)}</FormAlert>
      )}
      {/* A flex column on a phone, so that the menu's bar stays in view over every section (in a grid it would keep to its row). */}
      <div className="flex min-w-0 flex-col gap-6 lg:grid lg:grid-cols-[10rem_minmax(0,1fr)] lg:gap-10">
        <SectionMenu sections={sections} current={current} />
        <div className="grid min-w-0 gap-10">
          {sections.map(({ id }) => (
            // Clear of the phone's menu bar when scrolled to; on a wide screen the menu is beside it.
            <div key={id} id={id} className="grid min-w-0 scroll-mt-16 gap-10 lg:scroll-mt-0">
              {content[id]}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
