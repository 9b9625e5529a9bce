/**
 * Leads per visitor, as the Visits section and the weekly letter both give it. A rate divides
 * only what was measured on both sides: `measuredLeads` (the leads of days on which visits were
 * counted, VisitsReport) by the visitors counted. Even then people who ask their browser not to be
 * followed are left out of the visitors but not of the leads, so a rate over 100 % is not a rate
 * at all: the counts are shown instead, and why.
 */

/** Why a row has no rate: nobody was counted, or more leads came than visitors were counted. */
export type NoRate = 'no-visitors' | 'more-leads-than-visitors';

/** A rate, or why there is none: `conversionOf(row).none === 'no-visitors'` reads without narrowing first. */
export type Conversion = { rate: number; none?: undefined } | { rate?: undefined; none: NoRate };

/** The share of visitors who became leads (0 to 1), or why there is none. */
export function conversionOf({ measuredLeads, visitors }: { measuredLeads: number; visitors: number }): Conversion {
  if (measuredLeads > visitors) return { none: 'more-leads-than-visitors' };
  if (visitors === 0) return { none: 'no-visitors' };
  return { rate: measuredLeads / visitors };
}

/** Why more leads can come than visitors, in the words the owner reads beside such a figure. */
export const MORE_LEADS_WHY =
  'People who ask their browser not to be followed (Do Not Track or Global Privacy Control) are not counted as visitors, but can still send a form.';
