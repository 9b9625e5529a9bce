import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { campaignPage } from './_lib/admin/insights';
import { PageNumber, parseQuery, queryOf } from './_lib/admin/query';
import { ADMIN_HEADERS, requireAdmin } from './_lib/admin/session';
import { endpoint, json, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';

/** Longer than any campaign value the store keeps (100 characters now, 200 before). */
const MAX_SEARCH = 200;

/** ?page=n (from 1) and ?q=text, both optional, and nothing else. */
const CampaignQuery = queryOf({
  page: PageNumber,
  q: z
    .string()
    .trim()
    .max(MAX_SEARCH, `q must be at most ${MAX_SEARCH} characters`)
    .refine((q) => !/\p{Cc}/u.test(q), 'q must not hold control characters')
    .optional(),
});

/**
 * GET /api/admin/campaigns: every campaign, 20 to a page, in the dashboard's order (most leads,
 * then sign-ups); `q` keeps those whose source, medium or campaign holds it, whatever the case.
 */
export default endpoint({ name: 'admin-campaigns', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  await requireAdmin(req);
  const { page = 1, q = '' } = parseQuery(CampaignQuery, req);
  const store = await getStore();
  return json(200, campaignPage(await store.campaignCounts(), { page, q }));
});

export const config: Config = { path: '/api/admin/campaigns' };
