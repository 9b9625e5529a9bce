/**
 * Preloaded into decap-server (`node --import ./scripts/cms/whole-writes.ts`, see dev.ts) so that
 * each file it saves appears whole: written to a temporary file beside it, then renamed over it.
 *
 * Why: decap-server (3.11) saves an entry or a picture with `fs.promises.writeFile(path, data)`, in
 * place, while `astro dev` watches content/. The watcher can fire between the truncation and the
 * last byte; the content loader then reads half a file and logs `title: is missing`, and the page
 * shows the error until the next save. A rename within one folder swaps the whole file at once, so
 * every reader sees the old file or the new one. The temporary name starts with a dot and ends in
 * `.tmp`, which no content collection's pattern matches, so the loader never reads it either.
 *
 * The patch changes only what decap-server calls, `fs.promises.writeFile` on a path with the
 * default flag; an append, a write to an open file and any other call stay as Node has them. It is
 * a preload rather than a change to node_modules so that it survives `npm install`, and it lives in
 * decap-server's process alone: `astro dev` and the tests write as Node does. (In git mode, the
 * files git itself rewrites on a checkout or a merge are git's writes, which this does not reach.)
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const inPlace = fs.promises.writeFile;
let written = 0;

/** The file a write lands in (a symbolic link followed, as a write in place does) and its mode, if it exists. */
async function destination(file: string): Promise<{ target: string; mode?: number }> {
  try {
    const target = await fs.promises.realpath(file);
    return { target, mode: (await fs.promises.stat(target)).mode & 0o7777 };
  } catch {
    return { target: file };
  }
}

async function writeWhole(...args: Parameters<typeof inPlace>): Promise<void> {
  const [file, data, options] = args;
  const flag = typeof options === 'object' && options !== null ? options.flag : undefined;
  const onPath = typeof file === 'string' || Buffer.isBuffer(file) || file instanceof URL;
  if (!onPath || (flag !== undefined && flag !== 'w')) return inPlace(...args);

  const { target, mode } = await destination(file instanceof URL ? fileURLToPath(file) : file.toString());
  written += 1;
  const temporary = path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}-${written}.tmp`);
  const asGiven = typeof options === 'string' ? { encoding: options } : (options ?? {});
  try {
    await inPlace(temporary, data, { ...asGiven, flag: 'wx' });
    // A file saved over keeps its mode, as it does when written in place.
    if (mode !== undefined) await fs.promises.chmod(temporary, mode);
    await fs.promises.rename(temporary, target);
  } catch (error) {
    await fs.promises.rm(temporary, { force: true });
    throw error;
  }
}

fs.promises.writeFile = writeWhole;
// The same for code that imports `writeFile` from 'node:fs/promises' as an ES module.
syncBuiltinESMExports();
