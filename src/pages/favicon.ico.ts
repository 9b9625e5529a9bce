import type { APIRoute } from 'astro';
import logo from '../assets/logo.svg?raw';
import { ICO_SIZES, icoFile, logoPng } from '../lib/icons';

/** /favicon.ico: asked for by browsers, feed readers and link previewers whatever the page's <link>s say. */
export const GET: APIRoute = async () => {
  const images = await Promise.all(ICO_SIZES.map(async (size) => ({ size, png: await logoPng(logo, { size }) })));
  return new Response(new Uint8Array(icoFile(images)), { headers: { 'Content-Type': 'image/x-icon' } });
};
