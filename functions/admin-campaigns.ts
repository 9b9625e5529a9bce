import type { Config } from '@netlify/functions';
import { z } from 'zod';
import { campaignPage, MAX_PAGE } from './_lib/admin/insights';
import { ADMIN_HEADERS, requireAdmin } from './_lib/admin/session';
import { endpoint, errorResponse, json, requireMethod } from './_lib/platform/http';
import { getStore } from './_lib/store/get-store';

/** Longer than any campaign value the store keeps (100 characters now, 200 before). */
const MAX_SEARCH = 200;
const PAGE_ERROR = `page must be a whole number from 1 to ${MAX_PAGE}`;

/** ?page=n (from 1) and ?q=text, both optional, and nothing else. */
const CampaignQuery = z.strictObject(
  {
    page: z
      .string()
      .regex(/^[1-9][0-9]*$/, PAGE_ERROR)
      .transform(Number)
      .refine((page) => page <= MAX_PAGE, PAGE_ERROR)
      .optional(),
    q: z
      .string()
      .trim()
      .max(MAX_SEARCH, `q must be at most ${MAX_SEARCH} characters`)
      .refine((q) => !/\p{Cc}/u.test(q), 'q must not hold control characters')
      .optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown query parameter ${issue.keys.map((key) => key.slice(0, 40)).join(', ')}; use page and q`
        : undefined,
  },
);

/**
 * GET /api/admin/campaigns: every campaign, 20 to a page, in the dashboard's order (most leads,
 * then sign-ups); `q` keeps those whose source, medium or campaign holds it, whatever the case.
 */
export default endpoint({ name: 'admin-campaigns', headers: ADMIN_HEADERS }, async (req) => {
  requireMethod(req, ['GET']);
  await requireAdmin(req);
  const params = new URL(req.url).searchParams;
  for (const name of new Set(params.keys()))
    if (params.getAll(name).length > 1) return errorResponse(400, `Give ${name.slice(0, 40)} only once`);
  const query = CampaignQuery.safeParse(Object.fromEntries(params));
  if (!query.success) return errorResponse(400, query.error.issues[0]?.message ?? 'The query is not valid');
  const { page = 1, q = '' } = query.data;
  const store = await getStore();
  return json(200, campaignPage(await store.campaignCounts(), { page, q }));
});

export const config: Config = { path: '/api/admin/campaigns' };
