/**
 * Files read as text: their bytes, at most a limit from the start (a larger file is read that far, and says so),
 * decoded as UTF-8, UTF-16 (by its byte-order mark) or, when not valid UTF-8, Windows-1252 (older spreadsheets'
 * exports), so that no character turns into a replacement mark.
 */
import { closeSync, openSync, readSync } from 'node:fs';

/** How much of a text file is read into memory: a larger file is read up to here, and the rest is named. */
export const TEXT_MAX_BYTES = 10_000_000;

export interface TextRead {
  text: string;
  /** Bytes read; less than the file's size when it was larger than `TEXT_MAX_BYTES`. */
  read: number;
}

/** Reads at most `limit` bytes from the start of the file: never the whole of a larger file. */
export function readStart(path: string, size: number, limit = TEXT_MAX_BYTES): Buffer {
  const length = Math.min(size, limit);
  const buffer = Buffer.alloc(length);
  const fd = openSync(path, 'r');
  try {
    let done = 0;
    while (done < length) {
      const n = readSync(fd, buffer, done, length - done, done);
      if (n === 0) break;
      done += n;
    }
    return buffer.subarray(0, done);
  } finally {
    closeSync(fd);
  }
}

export function decode(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    // A cut at the read limit may split a character: only a bad byte before the last four says it is not UTF-8.
    const cut = body.length > 4 ? body.subarray(0, body.length - 4) : body;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(cut);
      return new TextDecoder('utf-8').decode(body).replace(/\uFFFD+$/, '');
    } catch {
      return windows1252(body);
    }
  }
}

/**
 * Windows-1252 as such: Node's TextDecoder takes the label but decodes ISO-8859-1 (0x80 as a control character,
 * not the euro sign), so the 27 characters it adds in 0x80–0x9F (€, dashes, curly quotes, Œ, Š) are mapped here.
 */
const CP1252 = '€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008DŽ\u008F\u0090‘’“”•–—˜™š›œ\u009DžŸ';

function windows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 8192) {
    const chunk = bytes.subarray(i, i + 8192);
    out += String.fromCharCode(...chunk).replace(/[\u0080-\u009F]/g, (c) => CP1252[c.charCodeAt(0) - 0x80]!);
  }
  return out;
}

/** The text of a file, its first `TEXT_MAX_BYTES` when larger: then up to its last whole line (of lines of usual length). */
export function readText(path: string, size: number): TextRead {
  let bytes = readStart(path, size);
  if (bytes.length < size) {
    const end = bytes.lastIndexOf(0x0a);
    if (end > 0 && bytes.length - end < 65_536) bytes = bytes.subarray(0, end + 1);
  }
  return { text: decode(bytes), read: bytes.length };
}

/** Text as lines, line breaks of any system. */
export function linesOf(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * JSON laid out one value a line (2 spaces a level), so a minified file can be read in parts. The file's own
 * tokens are kept as written (a number past double precision, a duplicate key): only whitespace between tokens
 * changes. Text that is not JSON (JSON Lines, a broken file) is kept as it is.
 */
export function jsonLines(text: string): { lines: string[]; valid: boolean } {
  try {
    JSON.parse(text);
  } catch {
    return { lines: linesOf(text), valid: false };
  }
  let out = '';
  let depth = 0;
  const newline = () => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j;
    } else if (c === '{' || c === '[') {
      const close = c === '{' ? '}' : ']';
      const next = text.slice(i + 1).trimStart()[0];
      if (next === close) {
        out += c + close;
        i = text.indexOf(close, i + 1);
      } else {
        depth++;
        out += c + newline();
      }
    } else if (c === '}' || c === ']') {
      depth--;
      out += newline() + c;
    } else if (c === ',') out += c + newline();
    else if (c === ':') out += ': ';
    else if (!/\s/.test(c)) out += c;
  }
  return { lines: out.split('\n'), valid: true };
}
