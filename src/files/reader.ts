/**
 * Reading a downloaded file for the model: the reader of its kind (kinds.ts) turns it into sections of lines, and
 * parts.ts cuts them into parts within a token budget. A PDF gives its text page by page under `## PDF page 2 of
 * 5`; a CSV or TSV a table in the snapshot's grammar; JSON laid out a value a line; HTML goes through the same
 * reader as pages (Readability and Turndown, handed in by the tool); plain text as it is. What cannot be read as
 * text (an image, an archive, an unknown binary) is one line saying what it is and its size; a zip lists its
 * entries. A file's sections are kept for the next part, so a long PDF is parsed once.
 */
import { existsSync } from 'node:fs';
import { BrowserToolError } from '../errors.js';
import type { DownloadEntry } from './downloads.js';
import { headOf, kindOf, sizeText } from './kinds.js';
import { charsPerToken, countTokens, partsOf, partText, splitLongLines, wrapRows, type Part, type Section } from './parts.js';
import { PdfUnreadable, readPdf } from './pdf.js';
import { tableOf } from './table.js';
import { jsonLines, linesOf, readText, TEXT_MAX_BYTES } from './text.js';
import { listZip } from './zip.js';
import { quote } from '../snapshot/index.js';

/** The largest PDF read: PDF.js needs the whole file in memory (in its worker), so a larger one is refused. */
export const PDF_MAX_BYTES = 50_000_000;

export interface ReadOptions {
  maxTokens: number;
  /** The part wanted, from 1. */
  part: number;
  /** How long the reading may take (a PDF's worker is stopped then). */
  ms: number;
  /** HTML to Markdown by the page reader (Readability and Turndown in a page of the session). */
  htmlToMarkdown: (html: string) => Promise<string>;
}

export interface FileRead {
  /** The document's title (a PDF's own), else its name. */
  title: string;
  text: string;
  part: number;
  parts: number;
  tokens: number;
  /** What the model should know: the file was read only in part, a PDF has no text layer, a CSV has broken rows. */
  notes: string[];
}

interface Contents {
  title: string;
  /** The first line of every part: the file, what it is, its size. */
  header: string;
  sections: Section[];
  notes: string[];
  ratio: number;
  parts: Map<number, Part[]>;
}

/** Files whose contents were read lately, by path and size: the next part of one is not parsed again. */
const recent = new Map<string, Contents>();
const RECENT = 4;

export async function readDownload(entry: DownloadEntry, options: ReadOptions): Promise<FileRead> {
  const contents = await contentsOf(entry, options);
  let cuts = contents.parts.get(options.maxTokens);
  if (!cuts) {
    cuts = partsOf(contents.sections, options.maxTokens - countTokens(contents.header) - 2, contents.ratio);
    contents.parts.set(options.maxTokens, cuts);
  }
  if (options.part > cuts.length) {
    throw new BrowserToolError('invalid_input', `${entry.name} has ${cuts.length} part${cuts.length === 1 ? '' : 's'} at this maxTokens; there is no part ${options.part}.`, {
      hint: `Ask for page 1 to ${cuts.length}.`,
    });
  }
  const body = partText(contents.sections, cuts[options.part - 1]!);
  const text = body ? `${contents.header}\n${body}` : contents.header;
  return { title: contents.title, text, part: options.part, parts: cuts.length, tokens: countTokens(text), notes: contents.notes };
}

async function contentsOf(entry: DownloadEntry, options: ReadOptions): Promise<Contents> {
  const key = `${entry.path}\u0000${entry.bytes}\u0000${entry.at}`;
  const known = recent.get(key);
  if (known) return known;
  if (!existsSync(entry.path)) {
    throw new BrowserToolError('browser_error', `${entry.name} is no longer in the session's download folder (it was removed from the disk).`, {
      hint: `Download it again from ${entry.url}.`,
    });
  }
  const contents = await readContents(entry, options);
  recent.set(key, contents);
  if (recent.size > RECENT) recent.delete(recent.keys().next().value!);
  return contents;
}

async function readContents(entry: DownloadEntry, options: ReadOptions): Promise<Contents> {
  const bytes = entry.bytes ?? 0;
  const kind = entry.kind ?? kindOf(entry.name, headOf(entry.path));
  const size = sizeText(bytes);
  const base = { title: entry.name, notes: [] as string[], parts: new Map<number, Part[]>() };
  const one = (line: string): Contents => ({ ...base, header: line, sections: [], ratio: 4 });
  const cutNote = (read: number) => (read < bytes ? [`${entry.name} is ${size}: only its first ${sizeText(read)} were read (the limit for a file read as text is ${sizeText(TEXT_MAX_BYTES)}).`] : []);

  switch (kind.kind) {
    case 'image':
      return one(`file ${quote(entry.name)}: ${kind.label}, ${size}. An image has no text to read; browser_screenshot shows a page, not a file.`);
    case 'binary':
      return one(`file ${quote(entry.name)}: ${kind.label}, ${size}. It cannot be read as text.`);
    case 'zip': {
      const listing = await listZip(entry.path).catch(() => undefined);
      if (!listing) return one(`file ${quote(entry.name)}: ${kind.label}, ${size}, damaged: its list of entries cannot be read.`);
      const lines = listing.entries.map((e) => `- ${e.name} (${sizeText(e.bytes)})`);
      if (listing.total > listing.entries.length) lines.push(`- … ${listing.total - listing.entries.length} more entries`);
      return {
        ...base,
        header: `file ${quote(entry.name)}: ${kind.label}, ${size}, ${listing.total} entr${listing.total === 1 ? 'y' : 'ies'} (the archive's files are listed, not read):`,
        sections: [{ lines }],
        ratio: 3,
      };
    }
    case 'pdf':
      return pdfContents(entry, options, size);
    case 'csv':
    case 'tsv': {
      const { text, read } = readText(entry.path, bytes);
      const { section, problems } = tableOf(entry.name, text, kind.kind === 'tsv' ? '\t' : undefined, read < bytes ? sizeText(read) : undefined);
      const notes = [...cutNote(read), ...(problems.length ? [`${entry.name} has rows that are not well-formed CSV: ${problems.join('; ')}.`] : [])];
      return withLines({ ...base, notes, header: `file ${quote(entry.name)}: ${kind.label}, ${size}`, sections: [section] }, text);
    }
    case 'json': {
      const { text, read } = readText(entry.path, bytes);
      const { lines, valid } = read < bytes ? { lines: linesOf(text), valid: false } : jsonLines(text);
      return withLines({ ...base, notes: cutNote(read), header: `file ${quote(entry.name)}: ${valid ? 'JSON' : 'JSON text'}, ${size}`, sections: [{ lines }] }, text);
    }
    case 'html': {
      const { text, read } = readText(entry.path, bytes);
      const markdown = await options.htmlToMarkdown(text);
      return withLines({ ...base, notes: cutNote(read), header: `file ${quote(entry.name)}: HTML page, ${size}, as Markdown`, sections: [{ lines: linesOf(markdown) }] }, markdown);
    }
    case 'text': {
      const { text, read } = readText(entry.path, bytes);
      return withLines({ ...base, notes: cutNote(read), header: `file ${quote(entry.name)}: ${kind.label}, ${size}`, sections: [{ lines: linesOf(text) }] }, text);
    }
  }
}

/** Contents whose lines are cut to fit a part, with the text's own characters-per-token. */
function withLines(contents: Omit<Contents, 'ratio' | 'parts'> & { parts?: Map<number, Part[]> }, text: string): Contents {
  const ratio = charsPerToken(text);
  // The smallest part asked for is 200 tokens: no line may be longer than half of that.
  const max = Math.floor(ratio * 100);
  const sections = contents.sections.map((s) => (s.rows ? wrapRows(s, max) : { ...s, lines: splitLongLines(s.lines, max) }));
  return { ...contents, sections, ratio, parts: contents.parts ?? new Map() };
}

async function pdfContents(entry: DownloadEntry, options: ReadOptions, size: string): Promise<Contents> {
  const bytes = entry.bytes ?? 0;
  if (bytes > PDF_MAX_BYTES) {
    throw new BrowserToolError('invalid_input', `${entry.name} is a PDF of ${size}, larger than the ${sizeText(PDF_MAX_BYTES)} a PDF may have to be read here.`, {
      hint: 'It cannot be read as text by this browser. Look for a smaller version or an HTML page with the same content, or tell the user.',
    });
  }
  let pdf;
  try {
    pdf = await readPdf(entry.path, options.ms);
  } catch (error) {
    if (error instanceof PdfUnreadable && error.reason === 'encrypted') {
      throw new BrowserToolError('invalid_input', `${entry.name} is an encrypted PDF that needs a password to open; it cannot be read.`, {
        hint: 'Tell the user the file is password-protected, or look for the same document without a password.',
      });
    }
    if (error instanceof PdfUnreadable) {
      throw new BrowserToolError('invalid_input', `${entry.name} is not a readable PDF (${error.reason === 'too_complex' ? error.message : `damaged or cut short: ${error.message}`}).`, {
        hint: `Download it again from ${entry.url} (a download cut short reads as damaged); if it fails again, the file itself is broken.`,
      });
    }
    throw new BrowserToolError('timeout', `${entry.name} (${size}) could not be read within this call's time: ${(error as Error).message}.`, {
      hint: 'The PDF is large or complex. Retry once; if it runs out of time again, it cannot be read here.',
      retryable: true,
    });
  }
  const count = pdf.pages.length;
  const withText = pdf.pages.filter((lines) => lines.length).length;
  const notes: string[] = [];
  const failed = new Set(pdf.failed.map((f) => f.page));
  if (withText === 0 && count > 0 && !failed.size) {
    notes.push(`${entry.name} has no text layer: its ${count} page${count === 1 ? ' is an image' : 's are images'} (a scan), so there is no text to read.`);
  } else if (pdf.failed.length) {
    notes.push(`${pdf.failed.length} page${pdf.failed.length === 1 ? '' : 's'} of ${entry.name} could not be read (damaged): ${pdf.failed.slice(0, 5).map((f) => f.page).join(', ')}.`);
  }
  const allText = pdf.pages.flat().join('\n');
  const ratio = charsPerToken(allText);
  const sections: Section[] = pdf.pages.map((lines, index) => {
    const heading = `## PDF page ${index + 1} of ${count}`;
    const empty = failed.has(index + 1) ? '(this page could not be read: damaged)' : '(no text on this page: an image or a scan)';
    return {
      lines: lines.length ? splitLongLines(lines, Math.floor(ratio * 100)) : [empty],
      heading: (from) => [from === 0 ? heading : `${heading} (continued)`],
    };
  });
  const title = pdf.title ? `, title ${quote(pdf.title)}` : '';
  return {
    title: pdf.title || entry.name,
    header: `file ${quote(entry.name)}: PDF, ${count} page${count === 1 ? '' : 's'}, ${size}${title}`,
    sections,
    notes,
    ratio,
    parts: new Map(),
  };
}
