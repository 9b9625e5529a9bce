import type { APIRoute } from 'astro';
import { site } from '../../site.config';

/** Where to report a vulnerability (RFC 9116), renewed by every build. */
export const GET: APIRoute = () => {
  // The RFC asks for an expiry less than a year ahead, so a file nobody maintains stops being trusted.
  const expires = new Date(Date.now() + 364 * 24 * 60 * 60 * 1000);
  const lines = [
    `Contact: mailto:${site.email}`,
    `Expires: ${expires.toISOString().replace(/\.\d{3}Z$/, 'Z')}`,
    'Preferred-Languages: en',
    `Canonical: ${site.url}/.well-known/security.txt`,
    '',
  ];
  return new Response(lines.join('\n'), { headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
};
