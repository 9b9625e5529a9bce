/**
 * The key a client is counted under by the rate limits and the login lockout. One IPv6 host
 * usually holds a whole /64 and can pick any address in it, so IPv6 clients are grouped by
 * their /64; IPv4 clients (and IPv4 mapped into IPv6) by their address.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { errorResponse, HttpError } from '../platform/http';

/** Eight groups of four hex digits, from any valid IPv6 spelling (`::` shorthand, embedded IPv4). */
function expandIPv6(address: string): string[] {
  let text = address.toLowerCase();
  const embedded = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (embedded) {
    const [a = 0, b = 0, c = 0, d = 0] = embedded.split('.').map(Number);
    text = `${text.slice(0, -embedded.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const middle = tail === undefined ? [] : Array.from({ length: 8 - left.length - right.length }, () => '0');
  return [...left, ...middle, ...right].map((group) => group.padStart(4, '0'));
}

/** The client's key, or undefined when the request carries no usable IP (such a request is refused). */
export function clientKey(ip: string | undefined | null): string | undefined {
  const address = ip?.trim().replace(/%.*$/, '') ?? '';
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return undefined;
  const groups = expandIPv6(address);
  const mapped = groups.slice(0, 6).join(':') === '0000:0000:0000:0000:0000:ffff';
  if (mapped) {
    const [high = 0, low = 0] = groups.slice(6).map((group) => parseInt(group, 16));
    return [high >> 8, high & 255, low >> 8, low & 255].join('.');
  }
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/**
 * The client key of a request, from Netlify's `context.ip`. A request without a usable IP is
 * refused (400) rather than counted under one key shared by every such request.
 */
export function requireClientKey(ip: string | undefined, headers: Record<string, string> = {}): string {
  const key = clientKey(ip);
  if (key === undefined)
    throw new HttpError(errorResponse(400, 'The client address of this request is unknown', { headers }));
  return key;
}
