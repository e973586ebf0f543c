/**
 * A PDF's text, page by page, with PDF.js (through `unpdf`, which ships it built for servers, with no native
 * dependency). It runs in a worker thread started on the first PDF read: the library is loaded there and only
 * then, so a call that reads no PDF pays nothing for it; a long or hostile file can be stopped at the call's
 * deadline (the thread is ended) and never blocks the other sessions' calls; its memory is capped.
 */
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface PdfText {
  /** The document's title from its metadata, if it has one. */
  title?: string;
  /** The lines of each page, top to bottom, in reading order within a line. */
  pages: string[][];
  /** Pages that could not be read (damaged), with why. */
  failed: Array<{ page: number; reason: string }>;
}

/** Why a PDF could not be read at all. */
export class PdfUnreadable extends Error {
  constructor(
    readonly reason: 'encrypted' | 'damaged' | 'too_complex',
    message: string,
  ) {
    super(message);
  }
}

/** The memory a worker may use: a PDF that needs more is named as too complex, the server is not put at risk. */
const WORKER_HEAP_MB = 512;

/**
 * The worker's code, evaluated as source text: the same in the ESM and CJS builds and under tsx, with no file of
 * its own to find. It takes Node's modules with `process.getBuiltinModule`, not `require`: the worker inherits the
 * process's options, and under `--input-type=module` its source is a module, where `require` does not exist.
 * It groups PDF.js's text pieces into lines by their height on the page (pieces whose heights overlap are one
 * line, read left to right), the way a person reads the page, whatever order the file drew them in.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
const { readFileSync } = process.getBuiltinModule('node:fs');

function linesOf(items) {
  const pieces = items.filter((item) => typeof item.str === 'string' && item.transform).map((item) => ({
    text: item.str, x: item.transform[4], y: item.transform[5], width: item.width || 0,
    size: Math.max(1, Math.abs(item.transform[3]) || Math.abs(item.transform[0]) || item.height || 10),
  }));
  pieces.sort((a, b) => b.y - a.y || a.x - b.x);
  // A piece is on a line when their heights overlap by half the smaller: a superscript or a footnote mark in
  // smaller type sits a little above the baseline and is still on its line; the next line of text is not.
  const lines = [];
  for (const piece of pieces) {
    const top = piece.y + piece.size * 0.75;
    const bottom = piece.y - piece.size * 0.2;
    const line = lines[lines.length - 1];
    const overlap = line ? Math.min(line.top, top) - Math.max(line.bottom, bottom) : 0;
    if (line && overlap > Math.min(line.top - line.bottom, top - bottom) * 0.5) {
      line.pieces.push(piece);
      line.top = Math.max(line.top, top);
      line.bottom = Math.min(line.bottom, bottom);
    } else lines.push({ top, bottom, pieces: [piece] });
  }
  return lines.map((line) => {
    line.pieces.sort((a, b) => a.x - b.x);
    let text = '';
    let end;
    for (const piece of line.pieces) {
      const gap = end === undefined ? 0 : piece.x - end;
      if (text && !/\\s$/.test(text) && !/^\\s/.test(piece.text) && gap > piece.size * 0.15) text += ' ';
      text += piece.text;
      end = piece.x + piece.width;
    }
    return text.replace(/\\s+/g, ' ').trim();
  }).filter(Boolean);
}

const library = import(workerData.entry);

async function read(path) {
  const { getDocumentProxy } = await library;
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(readFileSync(path)), { isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
  } catch (error) {
    const name = (error && error.name) || '';
    return { error: name === 'PasswordException' ? 'encrypted' : 'damaged', message: String((error && error.message) || error) };
  }
  const meta = await pdf.getMetadata().catch(() => undefined);
  const title = meta && meta.info && typeof meta.info.Title === 'string' ? meta.info.Title.trim() : undefined;
  const pages = [];
  const failed = [];
  for (let number = 1; number <= pdf.numPages; number++) {
    try {
      const page = await pdf.getPage(number);
      pages.push(linesOf((await page.getTextContent()).items));
      page.cleanup();
    } catch (error) {
      pages.push([]);
      failed.push({ page: number, reason: String((error && error.message) || error) });
    }
  }
  await pdf.destroy().catch(() => {});
  return { title: title || undefined, pages, failed };
}

// One file at a time, in the order asked.
let queue = Promise.resolve();
parentPort.on('message', ({ id, path }) => {
  queue = queue.then(() => read(path)).then(
    (result) => parentPort.postMessage({ id, ...result }),
    (error) => parentPort.postMessage({ id, error: 'damaged', message: String((error && error.message) || error) }),
  );
});
`;

let entry: string | undefined;

/**
 * The worker, started on the first PDF and kept for the next ones (loading PDF.js takes a second or two on a
 * busy machine); it does not keep the process alive. Ended when a read runs out of time or fails it: the next
 * read starts a fresh one.
 */
let reader: { worker: Worker; waiting: Map<number, (message: Answer) => void> } | undefined;
let nextId = 0;

type Answer = PdfText & { id: number; error?: 'encrypted' | 'damaged'; message?: string };

function startReader(): NonNullable<typeof reader> {
  entry ??= pathToFileURL(createRequire(import.meta.url).resolve('unpdf')).href;
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { entry }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  worker.unref();
  const started = { worker, waiting: new Map<number, (message: Answer) => void>() };
  const failAll = (message: string) => {
    if (reader === started) reader = undefined;
    for (const [id, answer] of started.waiting) answer({ id, pages: [], failed: [], error: 'damaged', message });
    started.waiting.clear();
  };
  worker.on('message', (message: Answer) => {
    started.waiting.get(message.id)?.(message);
    started.waiting.delete(message.id);
  });
  worker.on('error', (error) => failAll(/memory|heap/i.test(String(error)) ? 'reading it needs more memory than a file reader may use' : error.message));
  worker.on('exit', () => failAll('the reader stopped before it finished'));
  return started;
}

/**
 * Reads the text of the PDF at `path` in the reader's worker thread; after `ms` the worker is ended (and with it
 * any read still in it). Throws `PdfUnreadable` for an encrypted or damaged file, a plain `Error` past the time.
 */
export function readPdf(path: string, ms: number): Promise<PdfText> {
  reader ??= startReader();
  const current = reader;
  const id = nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      current.waiting.delete(id);
      if (reader === current) reader = undefined;
      void current.worker.terminate();
      reject(new Error(`reading the PDF took longer than ${(ms / 1000).toFixed(0)} s`));
    }, ms);
    current.waiting.set(id, (message) => {
      clearTimeout(timer);
      if (!message.error) return resolve({ title: message.title, pages: message.pages, failed: message.failed });
      reject(new PdfUnreadable(/memory/.test(message.message ?? '') ? 'too_complex' : message.error, message.message ?? ''));
    });
    current.worker.postMessage({ id, path });
  });
}
