/**
 * A PDF's text, page by page, with PDF.js (through `unpdf`, which ships it built for servers, with no native
 * dependency). It runs in a worker thread started on the first PDF a session reads: the library is loaded there
 * and only then, so a call that reads no PDF pays nothing for it; a long or hostile file can be stopped at the
 * call's deadline (the thread is ended) and never blocks the other sessions' calls; its memory is capped.
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
 * its own to find. It groups PDF.js's text pieces into lines by their baseline (pieces drawn at the same height
 * are one line, read left to right), the way a person reads the page, whatever order the file drew them in.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { readFileSync } = require('node:fs');

function linesOf(items) {
  const pieces = items.filter((item) => typeof item.str === 'string' && item.transform).map((item) => ({
    text: item.str, x: item.transform[4], y: item.transform[5], width: item.width || 0,
    size: Math.max(1, Math.abs(item.transform[3]) || Math.abs(item.transform[0]) || item.height || 10),
  }));
  pieces.sort((a, b) => b.y - a.y || a.x - b.x);
  const lines = [];
  for (const piece of pieces) {
    const line = lines[lines.length - 1];
    if (line && Math.abs(line.y - piece.y) <= Math.min(line.size, piece.size) * 0.5) line.pieces.push(piece);
    else lines.push({ y: piece.y, size: piece.size, pieces: [piece] });
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

(async () => {
  const { getDocumentProxy } = await import(workerData.entry);
  let pdf;
  try {
    pdf = await getDocumentProxy(new Uint8Array(readFileSync(workerData.path)), { isEvalSupported: false, stopAtErrors: false, verbosity: 0 });
  } catch (error) {
    const name = (error && error.name) || '';
    parentPort.postMessage({ error: name === 'PasswordException' ? 'encrypted' : 'damaged', message: String((error && error.message) || error) });
    return;
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
  parentPort.postMessage({ title: title || undefined, pages, failed });
})().catch((error) => parentPort.postMessage({ error: 'damaged', message: String((error && error.message) || error) }));
`;

let entry: string | undefined;

/**
 * Reads the text of the PDF at `path` in a worker thread; stopped (and the thread ended) after `ms`. Throws
 * `PdfUnreadable` for an encrypted or damaged file, and a plain `Error` when the time ran out.
 */
export function readPdf(path: string, ms: number): Promise<PdfText> {
  entry ??= pathToFileURL(createRequire(import.meta.url).resolve('unpdf')).href;
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { entry, path }, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => finish(() => reject(new Error(`reading the PDF took longer than ${(ms / 1000).toFixed(0)} s`))), ms);
    worker.on('message', (message: PdfText & { error?: 'encrypted' | 'damaged'; message?: string }) =>
      finish(() => (message.error ? reject(new PdfUnreadable(message.error, message.message ?? '')) : resolve(message))),
    );
    worker.on('error', (error) =>
      finish(() => reject(/memory|heap/i.test(String(error)) ? new PdfUnreadable('too_complex', 'reading it needs more memory than a file reader may use') : new PdfUnreadable('damaged', error.message))),
    );
    worker.on('exit', () => finish(() => reject(new PdfUnreadable('damaged', 'the reader stopped before it finished'))));
  });
}
