import type { APIRoute } from 'astro';
import { pngIcons } from '../lib/icons';
import { site } from '../site.config';

/** The web app manifest: the name, icons and colours a phone uses when the site is added to its home screen. */
export const GET: APIRoute = () => {
  const manifest = {
    name: site.name,
    // Shown under the home-screen icon, where about 12 characters fit.
    short_name: site.name.length <= 12 ? site.name : site.name.slice(0, 12).trim(),
    description: site.tagline,
    start_url: '/',
    scope: '/',
    display: 'browser',
    theme_color: site.themeColor,
    background_color: site.backgroundColor,
    icons: [
      { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      ...pngIcons(site.themeColor).flatMap(({ name, size, purpose }) =>
        purpose ? [{ src: `/${name}.png`, sizes: `${size}x${size}`, type: 'image/png', purpose }] : [],
      ),
    ],
  };
  return new Response(JSON.stringify(manifest, null, 2), { headers: { 'Content-Type': 'application/manifest+json' } });
};
