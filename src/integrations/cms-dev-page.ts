import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AstroIntegration } from 'astro';

/**
 * `astro dev` serves the CMS page at /admin/cms/ as Netlify and the local server do: the page is
 * built as admin/cms/index.html, which the dev server would otherwise answer only by that name
 * (its trailing-slash rule turns /admin/cms/ away before any route is tried).
 */
export function cmsDevPage(): AstroIntegration {
  return {
    name: 'cms-dev-page',
    hooks: {
      'astro:config:setup': ({ command, updateConfig }) => {
        if (command !== 'dev') return;
        updateConfig({
          vite: {
            plugins: [
              {
                name: 'cms-dev-page',
                // Astro puts its own middlewares (the trailing-slash rule among them) at the front
                // of the stack once the server is configured; this one goes in front of them.
                enforce: 'post',
                configureServer: (server) => () => {
                  server.middlewares.stack.unshift({
                    route: '',
                    handle: (request: IncomingMessage, response: ServerResponse, next: () => void) => {
                      const url = new URL(request.url ?? '/', 'http://localhost');
                      if (url.pathname === '/admin/cms') {
                        response.writeHead(301, { Location: `/admin/cms/${url.search}` }).end();
                        return;
                      }
                      if (url.pathname === '/admin/cms/') request.url = `/admin/cms/index.html${url.search}`;
                      next();
                    },
                  });
                },
              },
            ],
          },
        });
      },
    },
  };
}
