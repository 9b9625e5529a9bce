// src/shared holds what the pages and the functions both import, and ships to the browser: zod and this folder only.
// The bodies the /api answers with: the functions build them, the admin page and the build read them.
import type { Lead, Subscriber } from './records';

/** The error body every endpoint answers with. */
export interface ApiErrorBody {
  error: string;
  /** A message per invalid field (422). */
  fields?: Record<string, string>;
}

/** One page of a newest-first list, with the total, as the dashboard's tables read it. */
export interface ListPage<T> {
  items: T[];
  total: number;
  /** From 1. */
  page: number;
  pageSize: number;
}

/** New records: all of them, and those of the last 7 and 30 UTC days (today included). */
export interface Totals {
  total: number;
  last7: number;
  last30: number;
}

/** GET /api/admin/overview: everything the dashboard's first view shows. */
export interface Overview {
  totals: { subscribers: Totals; leads: Totals };
  /** New records per UTC day, oldest first, ending today. */
  daily: { day: string; subscribers: number; leads: number }[];
  /** New records per form over those days; the keys are sources as stored. */
  sources: { subscribers: Record<string, number>; leads: Record<string, number> };
  /** The first page of each list. */
  subscribers: ListPage<Subscriber>;
  leads: ListPage<Lead>;
}

/** GET /api/sectors and /api/sectors/{slug}. */
export interface ApiSector {
  id: number;
  slug: string;
  name: string;
  summary: string;
  /** Markdown. */
  description: string;
  imageUrl: string;
  automations: { title: string; text: string }[];
}

/** GET /api/mini-apps (?sector=name or slug) and /api/mini-apps/{slug}. */
export interface ApiMiniApp {
  id: number;
  slug: string;
  name: string;
  summary: string;
  description: string;
  /** Which icon the cards show. */
  icon: string;
  /** Sector names, in display order. */
  sectors: string[];
  best_for: string[];
  key_benefits: string[];
}

/** GET /api/blog and /api/blog/{slug}. */
export interface ApiPost {
  /** Publication order: the oldest post is 1. */
  id: number;
  slug: string;
  title: string;
  summary: string;
  /** Markdown. */
  content: string;
  imageUrl: string;
  /** YYYY-MM-DD. */
  publishedDate: string;
}

/** GET /api/legal/privacypolicy. */
export interface ApiPrivacyPolicy {
  title: string;
  /** YYYY-MM-DD. */
  updatedDate: string;
  /** Markdown. */
  content: string;
}

/** Everything the content /api serves, written once per build to dist/api-data.json. */
export interface ApiData {
  sectors: ApiSector[];
  miniApps: ApiMiniApp[];
  posts: ApiPost[];
  privacyPolicy: ApiPrivacyPolicy;
}
