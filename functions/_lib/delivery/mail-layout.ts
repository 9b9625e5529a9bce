// functions/_lib/delivery gets what the outbox holds to people: the e-mails, their SMTP transport or local folder, the signed webhooks and links, and the sweep.
/**
 * One layout for every e-mail, written twice from the same blocks: a plain-text part, and a
 * simple HTML part in the site's colours (one column, real headings, a lang attribute, images only
 * in newsletters and always with their text, links with visible URLs in the text part) that reads well in any client and with a screen reader.
 */
import { site } from '../../../src/site.config';

export type Block =
  | { kind: 'paragraph'; text: string }
  | { kind: 'fields'; rows: [label: string, value: string | undefined][] }
  | { kind: 'quote'; text: string }
  | { kind: 'button'; label: string; url: string }
  | { kind: 'small'; text: string }
  /** A small link of its own line (the footer's unsubscribe): its label as the link, and `label: URL` in the text part. */
  | { kind: 'link'; label: string; url: string }
  /** A newsletter's letter: HTML the build made from markdown (absolute links), and its markdown as text. */
  | { kind: 'letter'; html: string; text: string }
  /** A post's cover, at a full https:// address (mail clients show PNG and JPEG, not SVG). */
  | { kind: 'image'; url: string; alt: string }
  /** A post an issue features: its title linking to it, and its summary. */
  | { kind: 'card'; title: string; text: string; url: string };

export interface Rendered {
  text: string;
  html: string;
}

const INK = '#0b1a33';
const MUTED = '#445674';
const BRAND = '#0f766e';
const LINE = '#d6dde8';

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/** Text with its line breaks kept. */
const multiline = (value: string) => escapeHtml(value).replaceAll(/\r?\n/g, '<br>');

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="margin:0 0 16px;font-size:16px;line-height:1.6;color:${INK}">${multiline(block.text)}</p>`;
    case 'small':
      return `<p style="margin:0 0 12px;font-size:13px;line-height:1.5;color:${MUTED}">${multiline(block.text)}</p>`;
    case 'quote':
      return `<blockquote style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${BRAND};background:#f5f7fb;font-size:15px;line-height:1.6;color:${INK}">${multiline(block.text)}</blockquote>`;
    case 'button':
      return `<p style="margin:8px 0 24px"><a href="${escapeHtml(block.url)}" style="display:inline-block;padding:12px 20px;border-radius:999px;background:${BRAND};color:#ffffff;font-weight:600;text-decoration:none">${escapeHtml(block.label)}</a></p>`;
    case 'link':
      return `<p style="margin:0 0 12px;font-size:13px;line-height:1.5;color:${MUTED}"><a href="${escapeHtml(block.url)}" style="color:${BRAND}">${escapeHtml(block.label)}</a></p>`;
    case 'letter':
      return `<div style="font-size:16px;line-height:1.6;color:${INK}">${block.html}</div>`;
    case 'image':
      return `<p style="margin:0 0 16px"><img src="${escapeHtml(block.url)}" alt="${escapeHtml(block.alt)}" width="552" style="display:block;width:100%;max-width:552px;height:auto;border-radius:12px"></p>`;
    case 'card':
      return `<div style="margin:0 0 16px;padding:16px;border:1px solid ${LINE};border-radius:12px"><p style="margin:0 0 6px;font-size:17px;font-weight:700;line-height:1.4"><a href="${escapeHtml(block.url)}" style="color:${BRAND};text-decoration:none">${escapeHtml(block.title)}</a></p><p style="margin:0;font-size:15px;line-height:1.5;color:${MUTED}">${multiline(block.text)}</p></div>`;
    case 'fields': {
      const rows = block.rows
        .filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '')
        .map(
          ([label, value]) =>
            `<tr><th scope="row" style="padding:6px 12px 6px 0;text-align:left;vertical-align:top;font-size:14px;font-weight:600;color:${MUTED};white-space:nowrap">${escapeHtml(label)}</th><td style="padding:6px 0;font-size:15px;color:${INK};word-break:break-word">${multiline(value)}</td></tr>`,
        )
        .join('');
      return `<table role="presentation" style="margin:0 0 16px;border-collapse:collapse;width:100%">${rows}</table>`;
    }
  }
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
    case 'small':
      return block.text;
    case 'quote':
      return block.text
        .split(/\r?\n/)
        .map((line) => `> ${line}`)
        .join('\n');
    case 'button':
    case 'link':
      return `${block.label}: ${block.url}`;
    case 'letter':
      return block.text;
    case 'image':
      return '';
    case 'card':
      return `${block.title}\n${block.text}\n${block.url}`;
    case 'fields':
      return block.rows
        .filter((row): row is [string, string] => row[1] !== undefined && row[1] !== '')
        .map(([label, value]) => `${label}: ${value}`)
        .join('\n');
  }
}

/**
 * The message's two parts. `footer` closes it (why they got it, how to leave); `origin` is the
 * site's address the e-mail's links point at, which the footer names too.
 */
export function renderMail(origin: string, heading: string, blocks: Block[], footer: Block[] = []): Rendered {
  const address = site.address.lines.join(', ');
  const text = [
    heading,
    '='.repeat(Math.min(heading.length, 60)),
    '',
    ...blocks.flatMap((block) => {
      const text = blockText(block);
      return text ? [`${text}\n`] : [];
    }),
    '--',
    ...footer.map(blockText),
    `${site.name} · ${site.tagline}`,
    address,
    origin,
  ].join('\n');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(heading)}</title></head>
<body style="margin:0;padding:0;background:#f5f7fb">
<div style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<div style="padding:0 0 16px;font-size:18px;font-weight:700;color:${INK}">${escapeHtml(site.name)}</div>
<div style="padding:28px 24px;border:1px solid ${LINE};border-radius:16px;background:#ffffff">
<h1 style="margin:0 0 20px;font-size:22px;line-height:1.3;color:${INK}">${escapeHtml(heading)}</h1>
${blocks.map(blockHtml).join('\n')}
</div>
<div style="padding:16px 8px 0">
${footer.map(blockHtml).join('\n')}
<p style="margin:0;font-size:12px;line-height:1.5;color:${MUTED}">${escapeHtml(site.name)} · ${escapeHtml(site.tagline)}<br>${escapeHtml(address)}<br><a href="${escapeHtml(origin)}" style="color:${BRAND}">${escapeHtml(new URL(origin).host)}</a></p>
</div>
</div>
</body>
</html>`;
  return { text, html };
}
