/**
 * The e-mails the e2e server has written to its local outbox folder (it runs with no SMTP_URL,
 * as `npm start` does), read as a mail client reads them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { E2E_STORE_DIR } from './e2e-env';

/** Every e-mail of the outbox addressed to `email`, oldest first: the run's server's, or that of a spec's own server storing in `storeDir`. */
export async function mailsTo(email: string, storeDir = E2E_STORE_DIR): Promise<ParsedMail[]> {
  const folder = path.join(storeDir, 'outbox');
  let files: string[];
  try {
    files = readdirSync(folder)
      .filter((file) => file.endsWith('.eml'))
      .sort();
  } catch {
    return [];
  }
  const mails = await Promise.all(files.map((file) => simpleParser(readFileSync(path.join(folder, file)))));
  return mails.filter((mail) => [mail.to ?? []].flat().some((to) => to.value.some((box) => box.address === email)));
}

/** The address of the first link in an e-mail's text that opens `pagePath` (with its `?token=`). */
export function linkTo(mail: ParsedMail, pagePath: string): string {
  const escaped = pagePath.replaceAll(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  const found = new RegExp(`https?://[^\\s/]+${escaped}\\?token=[^\\s<>"]+`).exec(mail.text ?? '');
  if (!found) throw new Error(`no link to ${pagePath} in "${mail.subject ?? ''}"`);
  return found[0];
}
