import type { APIRoute } from 'astro';
import logo from '../assets/logo.svg?raw';

/** /favicon.svg: the logo itself, sharp at every size in the browsers that take an SVG icon. */
export const GET: APIRoute = () => new Response(logo, { headers: { 'Content-Type': 'image/svg+xml' } });
