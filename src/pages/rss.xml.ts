import rss from '@astrojs/rss';
import type { APIRoute } from 'astro';
import { getPublishedPosts } from '../lib/content';
import { site } from '../site.config';

export const GET: APIRoute = async () => {
  const posts = await getPublishedPosts();
  return rss({
    title: `${site.name} blog`,
    description:
      'Practical guides on automating the operations of small and medium businesses with AI and no-code tools.',
    site: site.url,
    items: posts.map((post) => ({
      title: post.data.title,
      description: post.data.summary,
      pubDate: post.data.publishedDate,
      link: `/blog/${post.id}`,
    })),
    customData: '<language>en</language>',
    trailingSlash: false,
  });
};
