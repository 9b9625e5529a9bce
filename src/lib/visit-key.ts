/**
 * The sessionStorage key of the visit: BaseLayout's script writes it on every page view
 * (src/lib/attribution.ts), the forms read it (src/lib/api.ts). A module of its own holding a
 * constant only, which the bundler writes into both: the script shares no module with the islands,
 * so it stays written into each page instead of becoming a file fetched before the first paint.
 */
export const VISIT_KEY = 'visit';
