/**
 * The local server answers as Netlify would: page URLs by Netlify's pretty-URL rules (one form
 * served, the other a 301 to it), a path that does not decode as a 404 rather than a crash, and
 * a connection that stays usable after a request whose body was refused unread.
 */
import http from 'node:http';
import net from 'node:net';
import { describe, expect, inject, test } from 'vitest';

const origin = inject('siteOrigin');
const port = Number(new URL(origin).port);

const get = (path: string) => fetch(`${origin}${path}`, { redirect: 'manual' });

describe("page URLs follow Netlify's rules", () => {
  test.each(['/', '/sectors', '/sectors/saas', '/blog/what-to-automate-first', '/admin/insights'])(
    '%s is served with 200 and no redirect',
    async (path) => {
      const response = await get(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('location')).toBeNull();
      expect(response.headers.get('content-type')).toContain('text/html');
    },
  );

  test.each([
    ['/sectors/saas/', '/sectors/saas'],
    ['/sectors/', '/sectors'],
    ['/mini-apps/glossary-builder/', '/mini-apps/glossary-builder'],
    [
      '/blog/what-to-automate-first/?utm_source=newsletter&x=1',
      '/blog/what-to-automate-first?utm_source=newsletter&x=1',
    ],
  ])('%s answers 301 to %s', async (path, location) => {
    const response = await get(path);
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe(location);
  });

  test.each(['/blog/%E0%A4%A', '/%E0%A4%A', '/sectors/%zz'])(
    'a path with a malformed percent-escape answers 404, not a server error: %s',
    async (path) => {
      expect((await get(path)).status).toBe(404);
    },
  );
});

/** The responses read from one connection: status and body of each, once `count` have arrived. */
function readResponses(socket: net.Socket, count: number): Promise<{ status: number; body: string }[]> {
  return new Promise((resolve, reject) => {
    let buffer = Buffer.alloc(0);
    const parsed: { status: number; body: string }[] = [];
    const parse = () => {
      for (;;) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        let rest = buffer.subarray(end + 4);
        const length = /^content-length: *(\d+)$/im.exec(head);
        let body: Buffer;
        if (length) {
          if (rest.length < Number(length[1])) return;
          body = rest.subarray(0, Number(length[1]));
          rest = rest.subarray(Number(length[1]));
        } else {
          // Chunked: size lines in hex, up to a zero-size chunk.
          const chunks: Buffer[] = [];
          let offset = 0;
          for (;;) {
            const lineEnd = rest.indexOf('\r\n', offset);
            if (lineEnd < 0) return;
            const size = Number.parseInt(rest.subarray(offset, lineEnd).toString('latin1'), 16);
            if (rest.length < lineEnd + 2 + size + 2) return;
            chunks.push(rest.subarray(lineEnd + 2, lineEnd + 2 + size));
            offset = lineEnd + 2 + size + 2;
            if (size === 0) break;
          }
          body = Buffer.concat(chunks);
          rest = rest.subarray(offset);
        }
        parsed.push({ status: Number(head.split(' ')[1]), body: body.toString('utf8') });
        buffer = rest;
        if (parsed.length === count) {
          socket.off('data', onData);
          resolve(parsed);
          return;
        }
      }
    };
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      parse();
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`the connection closed after ${parsed.length} response(s)`)));
    socket.once('error', reject);
  });
}

/** A raw connection to the server, for requests `fetch` would not send as they are written here. */
async function connect(): Promise<net.Socket> {
  const socket = net.connect(port, 'localhost');
  await new Promise((resolve) => socket.once('connect', resolve));
  return socket;
}

describe('a refused body', () => {
  test('after a 413 the same kept-alive connection serves the next request', async () => {
    // Larger than what the server buffers on its own (about 64 KB), so the rest of it is still on
    // the wire when the 413 goes out.
    const body = JSON.stringify({
      email: 'large@example.com',
      firstName: 'x'.repeat(300_000),
      source: 'newsletter_footer',
    });
    const socket = await connect();
    try {
      // The head and the start of the body: the function refuses the declared size at once.
      socket.write(
        `POST /api/subscribers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 1000)}`,
      );
      const [refused] = await readResponses(socket, 1);
      expect(refused?.status).toBe(413);
      expect(JSON.parse(refused?.body ?? '{}')).toHaveProperty('error');
      // The rest of that body, then the next request, on the same connection.
      socket.write(body.slice(1000));
      socket.write('GET /api/sectors HTTP/1.1\r\nHost: localhost\r\n\r\n');
      const [next] = await readResponses(socket, 1);
      expect(next?.status).toBe(200);
      expect(JSON.parse(next?.body ?? '[]')).toHaveLength(5);
    } finally {
      socket.destroy();
    }
  });

  test('after a 413 for a large body of unknown length, the next request on a keep-alive agent works', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const send = (method: string, path: string, body?: string) =>
      new Promise<{ status?: number; connection?: string; text: string }>((resolve, reject) => {
        const request = http.request(
          {
            host: 'localhost',
            port,
            method,
            path,
            agent,
            headers: body ? { 'content-type': 'application/json' } : {},
          },
          (response) => {
            let text = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => (text += chunk));
            response.on('end', () =>
              resolve({ status: response.statusCode, connection: response.headers.connection, text }),
            );
          },
        );
        request.on('error', reject);
        // Written in pieces with no Content-Length: the body goes out chunked, its size unknown.
        if (body)
          for (let offset = 0; offset < body.length; offset += 64 * 1024)
            request.write(body.slice(offset, offset + 64 * 1024));
        request.end();
      });
    try {
      const refused = await send(
        'POST',
        '/api/subscribers',
        JSON.stringify({ email: 'large@example.com', firstName: 'x'.repeat(2_000_000), source: 'newsletter_footer' }),
      );
      expect(refused.status).toBe(413);
      // Too much to read through: the server says it closes the connection, so the agent opens another.
      expect(refused.connection).toBe('close');
      const next = await send('GET', '/api/sectors');
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});

describe('a Host header that names no host', () => {
  test.each([`localhost:${port}@evil.example`, 'localhost:99999', '[::1'])(
    'Host: %s answers 400 with a JSON error, not a server error',
    async (host) => {
      const socket = await connect();
      try {
        const body = JSON.stringify({ email: 'host@example.com', firstName: 'Ho', source: 'website_footer' });
        socket.write(
          `POST /api/newsletter/subscribe HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        const [answer] = await readResponses(socket, 1);
        expect(answer?.status).toBe(400);
        expect(JSON.parse(answer?.body ?? '{}')).toEqual({ error: expect.stringMatching(/Host/) });
      } finally {
        socket.destroy();
      }
    },
  );
});
