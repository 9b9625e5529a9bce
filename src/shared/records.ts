// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// The records the store keeps, as the admin dashboard shows them.

export interface Subscriber {
  /** As the person typed it (trimmed, lower-cased): `ada@bücher.de`. */
  email: string;
  /** The address with an internationalised domain in punycode, for sending; only when it differs from `email`. */
  emailAscii?: string;
  firstName: string;
  lastName?: string;
  /** Every form the person subscribed through, first one first. */
  sources: string[];
  /** ISO time of the first subscription; never changes. */
  createdAt: string;
  /** ISO time of the latest subscription. */
  updatedAt: string;
}

export interface Lead {
  id: string;
  name: string;
  email: string;
  /** The address with an internationalised domain in punycode, for sending; only when it differs from `email`. */
  emailAscii?: string;
  company?: string;
  source: string;
  notes?: string;
  createdAt: string;
}
