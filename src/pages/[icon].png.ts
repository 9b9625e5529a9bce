import type { APIRoute, GetStaticPaths } from 'astro';
import logo from '../assets/logo.svg?raw';
import { logoPng, pngIcons, type PngIcon } from '../lib/icons';
import { site } from '../site.config';

/** /apple-touch-icon.png and the web app manifest's icons. */
export const getStaticPaths = (() =>
  pngIcons(site.themeColor).map((icon) => ({ params: { icon: icon.name }, props: { icon } }))) satisfies GetStaticPaths;

export const GET: APIRoute<{ icon: PngIcon }> = async ({ props }) =>
  new Response(new Uint8Array(await logoPng(logo, props.icon)), { headers: { 'Content-Type': 'image/png' } });
