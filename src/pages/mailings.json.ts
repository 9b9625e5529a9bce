import type { APIRoute } from 'astro';
import { buildMailings } from '../lib/mailings-build';

/** Built once per deploy for the newsletter's sender (src/shared/mailing-types.ts); linked from no page. */
export const GET: APIRoute = async () => Response.json(await buildMailings());
