import type { APIRoute } from 'astro';
import { buildMailings } from '../lib/mailings';

/** Built once per deploy for the newsletter's sender (src/shared/mailings.ts); linked from no page. */
export const GET: APIRoute = async () => Response.json(await buildMailings());
