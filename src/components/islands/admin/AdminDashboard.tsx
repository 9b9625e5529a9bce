import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { apiRequest, errorText } from '../../../lib/api-client';
import { onSessionEnd, queryClient } from '../../../lib/query-client';
import type { Overview } from '../../../shared/api-responses';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/field';
import { ADMIN_BAR_TOOLS } from './admin-bar';
import { OVERVIEW_KEY } from './record-text';
import { Bookings } from './Bookings';
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
  { id: 'leads', label: 'Leads' },
  { id: 'bookings', label: 'Bookings' },
  { id: 'visits', label: 'Visits' },
  { id: 'figures', label: 'Figures' },
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
  const overview = useQuery<Overview>({ queryKey: [OVERVIEW_KEY] });
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
    leads: <Leads initial={data && { ...data.leads, statuses: data.leadStatuses }} waiting={overview.isPending} />,
    bookings: <Bookings />,
    figures: data && <Figures data={data} />,
    spam: <Spam held={data?.spam.held} />,
    subscribers: <Subscribers initial={data?.subscribers} />,
    newsletter: <Newsletter />,
    outbox: <Outbox counts={data?.outbox} />,
    delivery: data && <Delivery setup={data.delivery} outbox={data.outbox} />,
    'external-dashboard': externalDashboardUrl && <ExternalDashboard url={externalDashboardUrl} />,
  };
  const tools = useBarTools();
  const barTools = (
    <>
      <SectionMenu sections={sections} current={current} />
      <Button variant="secondary" size="sm" className="order-3 shrink-0" onClick={() => void logout()}>
        Logout
      </Button>
    </>
  );
  return (
    <div className="grid min-w-0 gap-6">
      {tools ? createPortal(barTools, tools) : <div className="flex flex-wrap items-center gap-3">{barTools}</div>}
      {data && <DeliveryWarning setup={data.delivery} />}
      {overview.isPending && <p className="text-ink-600">Loading the figures…</p>}
      {overview.error && (
        <FormAlert tone="error">The figures could not be loaded: {errorText(overview.error)}</FormAlert>
      )}
      <div className="grid min-w-0 gap-12">
        {sections.map(({ id }) => (
          // The page's scroll-padding-top (global.css) keeps a section scrolled to clear of the bar.
          <div key={id} id={id} className="grid min-w-0 gap-10">
            {content[id]}
          </div>
        ))}
      </div>
      <p className="flex flex-wrap items-center gap-3 border-t border-ink-200 pt-6 text-sm text-ink-700">
        Logged in on a browser you no longer use?
        <Button variant="secondary" size="sm" onClick={() => void logout(true)}>
          Log out everywhere
        </Button>
      </p>
    </div>
  );
}

/**
 * The bar's place for the menu and Logout; none outside the admin page. The dashboard is only
 * ever rendered in the browser, after a login, when the bar is already on the page.
 */
function useBarTools(): HTMLElement | null {
  const [tools] = useState(() => document.getElementById(ADMIN_BAR_TOOLS));
  return tools;
}
