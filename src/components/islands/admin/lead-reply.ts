/** The owner's reply to a lead, as a `mailto:` link their own mail program opens. */
import type { Lead } from '../../../shared/records';

/** How much of the prospect's message the reply quotes: mail programs cut long `mailto:` links (Outlook near 2,000 characters). */
export const QUOTED_MAX = 1000;

/** What the prospect asked for, as the reply's subject names it. */
function enquiry(lead: Pick<Lead, 'source'>, siteName: string): string {
  return lead.source === 'zoho_guide' ? 'your Zoho guide request' : `your enquiry to ${siteName}`;
}

/** The message quoted line by line (`> `), cut at QUOTED_MAX characters. */
function quoted(message: string): string {
  const text = message.length > QUOTED_MAX ? `${message.slice(0, QUOTED_MAX).trimEnd()} […]` : message;
  return text
    .split(/\r?\n/)
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\r\n');
}

/**
 * A `mailto:` link to the prospect: the subject names the enquiry, and the body greets them by
 * their first name, with room to write, above their message quoted. Each part is percent-encoded
 * as RFC 6068 asks (line breaks as %0D%0A); the address keeps its `@`.
 */
export function replyLink(
  lead: Pick<Lead, 'name' | 'email' | 'emailAscii' | 'source' | 'notes'>,
  { siteName, written }: { siteName: string; written: string },
): string {
  const firstName = lead.name.trim().split(/\s+/)[0] ?? lead.name;
  const lines = [`Hi ${firstName},`, '', '', ''];
  if (lead.notes) lines.push(`On ${written}, ${lead.name} wrote:`, quoted(lead.notes));
  const to = encodeURIComponent(lead.emailAscii ?? lead.email).replace('%40', '@');
  const subject = encodeURIComponent(`Re: ${enquiry(lead, siteName)}`);
  const body = encodeURIComponent(lines.join('\r\n'));
  return `mailto:${to}?subject=${subject}&body=${body}`;
}
