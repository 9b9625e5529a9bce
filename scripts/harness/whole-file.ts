/**
 * Writes a file that a running watcher or server may read (astro dev's content loader, say) so
 * that it is only ever seen whole: the text goes to a temporary file beside it, which is then
 * renamed over it. A write in place is seen half-done: the loader reads an empty or cut-off file
 * and reports a missing field. The temporary name starts with a dot and ends in `.tmp`, matching
 * no content collection's pattern. scripts/cms/whole-writes.ts does the same for decap-server.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

let written = 0;

export function writeFileWhole(file: string, data: string | NodeJS.ArrayBufferView): void {
  written += 1;
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}-${written}.tmp`);
  try {
    writeFileSync(temporary, data, { flag: 'wx' });
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
