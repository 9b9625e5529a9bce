import { QueryClientProvider, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { apiRequest, errorText } from '../../../lib/api';
import { onSessionEnd, queryClient } from '../../../lib/query-client';
import type { Overview } from '../../../shared/api';
import { Button } from '../../ui/button';
import { FormAlert } from '../../ui/field';
import { Analytics } from './Analytics';
import { Campaigns } from './Campaigns';
import { Delivery } from './Delivery';
import { loadChart } from './Chart';
import { Figures } from './Figures';
import { Leads } from './Leads';
import { Newsletter } from './Newsletter';
import { Outbox } from './Outbox';
import { Spam } from './Spam';
import { Subscribers } from './Subscribers';
import { forgetDrafts } from './use-draft';

interface DashboardProps {
  analyticsUrl?: string;
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

function Dashboard({ analyticsUrl, onLogout, onSessionEnd: onEnd }: DashboardProps) {
  const client = useQueryClient();
  const overview = useQuery<Overview>({ queryKey: ['/api/admin/overview'] });
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
  return (
    <div className="grid min-w-0 gap-10">
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
      {overview.isPending && <p className="text-ink-600">Loading the figures…</p>}
      {overview.error && (
        <FormAlert tone="error">The figures could not be loaded: {errorText(overview.error)}</FormAlert>
      )}
      {data && <Delivery setup={data.delivery} outbox={data.outbox} />}
      {data && <Figures data={data} />}
      {data && <Campaigns summary={data.campaigns} />}
      <Leads initial={data?.leads} />
      <Spam held={data?.spam.held} />
      <Subscribers initial={data?.subscribers} />
      <Newsletter />
      <Outbox counts={data?.outbox} />
      <Analytics url={analyticsUrl} />
    </div>
  );
}
