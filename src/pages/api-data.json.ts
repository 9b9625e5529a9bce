import type { APIRoute } from 'astro';
import { buildApiData } from '../lib/api-data';

/** Built once per deploy and read by functions/content.ts, which serves it as the /api. */
export const GET: APIRoute = async () => Response.json(await buildApiData());
