/**
 * The /api's view of the content: the entity shapes of the specification, built from the same
 * collections and queries as the pages, so the two can never disagree.
 */
import { getImage } from 'astro:assets';
import type { ImageMetadata } from 'astro';
import type { ApiData } from '../shared/api-responses';
import { getMiniApps, getPrivacyPolicy, getPublishedPosts, getSectors, getSectorsOfMiniApp } from './content';
import { isoDate } from './format';

async function imageUrl(src: ImageMetadata): Promise<string> {
  return (await getImage({ src, format: 'webp', width: 1200 })).src;
}

export async function buildApiData(): Promise<ApiData> {
  const sectors = await getSectors();
  const posts = await getPublishedPosts();
  // Ids follow publication order (oldest is 1), so a new post never renumbers the others.
  const postIds = new Map([...posts].reverse().map((post, index) => [post.id, index + 1]));
  const policy = await getPrivacyPolicy();

  return {
    sectors: await Promise.all(
      sectors.map(async (sector) => ({
        id: sector.data.order,
        slug: sector.id,
        name: sector.data.name,
        summary: sector.data.summary,
        description: sector.body?.trim() ?? '',
        imageUrl: await imageUrl(sector.data.image),
        automations: sector.data.automations,
      })),
    ),
    miniApps: await Promise.all(
      (await getMiniApps()).map(async (app) => ({
        id: app.data.order,
        slug: app.id,
        name: app.data.name,
        summary: app.data.summary,
        description: app.data.description,
        icon: app.data.icon,
        // Sector names in display order, as the mini-app pages list them.
        sectors: (await getSectorsOfMiniApp(app)).map((sector) => sector.data.name),
        best_for: app.data.best_for,
        key_benefits: app.data.key_benefits,
      })),
    ),
    posts: await Promise.all(
      posts.map(async (post) => ({
        id: postIds.get(post.id) ?? 0,
        slug: post.id,
        title: post.data.title,
        summary: post.data.summary,
        content: post.body?.trim() ?? '',
        imageUrl: await imageUrl(post.data.image),
        publishedDate: isoDate(post.data.publishedDate),
      })),
    ),
    privacyPolicy: {
      title: policy.data.title,
      updatedDate: isoDate(policy.data.updatedDate),
      content: policy.body?.trim() ?? '',
    },
  };
}
