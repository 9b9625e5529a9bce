import type { APIRoute } from 'astro';
import { getPrivacyPolicy } from '../lib/content';
import { isoDate } from '../lib/format';

/**
 * The privacy policy's date, for the consent record the newsletter functions keep with each
 * subscriber (functions/_lib/platform/policy.ts reads it; netlify.toml ships it with them).
 */
export const GET: APIRoute = async () => {
  const policy = await getPrivacyPolicy();
  return Response.json({ updatedDate: isoDate(policy.data.updatedDate) });
};
