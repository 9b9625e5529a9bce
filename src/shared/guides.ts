// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// The guides promised by the forms: the page each form's guide lives at, which the e-mail links to.

export interface GuideLink {
  /** The guide's page on this site (unlisted: noindex, not in the sitemap). */
  path: string;
  title: string;
}

/** The guide a lead from this form is sent; forms without a guide are absent. */
export const GUIDE_FOR_SOURCE: Partial<Record<string, GuideLink>> = {
  zoho_guide: {
    path: '/guides/zoho-google-workspace',
    title: 'Connecting Zoho and Google Workspace: a practical guide for small businesses',
  },
};
