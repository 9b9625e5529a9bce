/**
 * The sessionStorage key of the visit: BaseLayout's script writes it on every page
 * (src/lib/attribution.ts), the forms read it (src/lib/api-client.ts). A module of its own holding a
 * constant only, which the bundler writes into both: the script shares no module with the islands,
 * so it stays written into each page's script instead of becoming a chunk of its own, one more
 * file every page would fetch.
 */
export const VISIT_KEY = 'visit';
