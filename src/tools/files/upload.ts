import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import { defineBrowserTool, type CallContext } from '../defineTool.js';
import { readyDownload } from '../helpers/fileReading.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { refSchema, resolveTarget } from '../helpers/target.js';

/**
 * Resolves `path` inside `root` and refuses anything whose real location is elsewhere: `..`, absolute paths,
 * and symlinks (to a file or through a linked folder) that lead out. Only regular files are accepted.
 */
export function resolveInside(root: string, path: string): string {
  const outside = () =>
    new BrowserToolError('invalid_input', `"${path}" is outside the upload directory.`, { hint: 'Give the name of a file in the upload directory, relative to it.' });
  const full = resolve(root, path);
  if (isOutside(root, full)) throw outside();
  let real: string;
  try {
    real = realpathSync(full);
  } catch {
    throw new BrowserToolError('invalid_input', `There is no file "${path}" in the upload directory.`, { hint: 'Give the name of an existing file.' });
  }
  if (isOutside(realpathSync(root), real)) throw outside();
  if (!statSync(real).isFile()) {
    throw new BrowserToolError('invalid_input', `"${path}" is not a regular file (a folder, device or pipe).`, { hint: 'Give the name of a file, not a folder.' });
  }
  return real;
}

function isOutside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel.startsWith('..') || isAbsolute(rel);
}

export const uploadTool = defineBrowserTool({
  id: 'browser_upload',
  description:
    'Attach files to a file input (or to a button that opens a file picker) by ref: files this session downloaded, by the name results listed under downloads, or paths relative to the upload directory set by the toolset owner. Returns the file names the page received.',
  input: z.object({
    ref: refSchema,
    paths: z.array(z.string().min(1)).min(1).max(20).describe('Downloaded files by name (e.g. "invoice.pdf"), or paths relative to the upload directory.'),
  }),
  output: { ref: z.string(), files: z.array(z.string()), ...effectsShape },
  async handle({ ref, paths }, call) {
    const files = await Promise.all(paths.map((p) => fileToUpload(call, p)));
    const target = await resolveTarget(call, ref, 'upload to');
    const isFileInput = await target.locator.evaluate((el) => el instanceof HTMLInputElement && el.type === 'file');
    const timeout = call.deadline.forStep();
    const effects = await observeAction(call, async () => {
      if (isFileInput) {
        await target.locator.setInputFiles(files, { timeout });
        return;
      }
      const chooser = call.tab.page.waitForEvent('filechooser', { timeout });
      await target.locator.click({ timeout });
      await (await chooser).setFiles(files);
    });
    return { ref: target.ref, files: paths, ...effects };
  },
});

/**
 * Where a file to upload is: a download of this session named as results list it (its own folder), else a path
 * inside the upload directory. Nothing else on the machine can be sent to a page.
 */
async function fileToUpload(call: CallContext, path: string): Promise<string> {
  const download = call.session.downloads.get(path);
  if (download) return resolveInside(dirname((await readyDownload(call, download)).path), basename(download.path));
  const root = call.config.uploadDir;
  if (!root) {
    const names = call.session.downloads.list().map((e) => e.name);
    throw new BrowserToolError('invalid_input', `"${path}" is not a file this session downloaded, and uploads from a folder are disabled in this toolset.`, {
      hint: names.length ? `Give the name of a download: ${names.slice(-10).map((n) => JSON.stringify(n)).join(', ')}.` : 'Only files this session downloaded can be uploaded (the toolset has no uploadDir): download the file first.',
    });
  }
  return resolveInside(root, path);
}
