/**
 * What a file is, from its first bytes and then its name: the reader to use and the words that name it for the
 * model ("PDF", "CSV table", "PNG image"). The bytes decide first, because a name can lie (a PDF saved as
 * "download", an HTML error page saved as "report.pdf").
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { extname } from 'node:path';

export type FileKind = 'pdf' | 'csv' | 'tsv' | 'json' | 'html' | 'text' | 'zip' | 'image' | 'binary';

export interface Kind {
  kind: FileKind;
  /** How the model is told what the file is: "PDF", "CSV table", "PNG image", "zip archive (Word document)". */
  label: string;
}

const HEAD_BYTES = 4_096;

const IMAGES: Array<[(b: Buffer) => boolean, string]> = [
  [(b) => b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), 'PNG image'],
  [(b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff, 'JPEG image'],
  [(b) => b.subarray(0, 4).toString('latin1') === 'GIF8', 'GIF image'],
  [(b) => b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP', 'WebP image'],
  [(b) => b.subarray(0, 2).toString('latin1') === 'BM', 'BMP image'],
];

/** Zip containers known by their name: said with the archive, since their text is not read. */
const ZIP_FORMATS: Record<string, string> = {
  '.docx': 'Word document', '.xlsx': 'Excel workbook', '.pptx': 'PowerPoint presentation', '.odt': 'OpenDocument text',
  '.ods': 'OpenDocument spreadsheet', '.odp': 'OpenDocument presentation', '.epub': 'EPUB book', '.jar': 'Java archive',
};

const TEXT_EXTENSIONS = new Set(['.txt', '.text', '.md', '.markdown', '.log', '.ini', '.cfg', '.conf', '.yaml', '.yml', '.xml', '.rtf', '.ics', '.vcf', '.srt', '.toml', '.sql', '.js', '.ts', '.py', '.sh']);

/** The first bytes of a file (at most 4 KB): enough to tell its kind without reading it. */
export function headOf(path: string): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    return buffer.subarray(0, readSync(fd, buffer, 0, HEAD_BYTES, 0));
  } finally {
    closeSync(fd);
  }
}

/** Text with no NUL byte whose start decodes as UTF-8 (or carries a UTF-16 mark): a file to read as text. */
function looksLikeText(head: Buffer): boolean {
  if (head.length === 0) return true;
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff)) return true;
  if (head.includes(0)) return false;
  // Control characters other than tab, line breaks and form feed mark a binary file.
  let controls = 0;
  for (const byte of head) if (byte < 0x20 && byte !== 9 && byte !== 10 && byte !== 13 && byte !== 12 && byte !== 27) controls++;
  return controls <= head.length / 100;
}

export function kindOf(name: string, head: Buffer): Kind {
  const ext = extname(name).toLowerCase();
  const start = head.subarray(0, 1_024).toString('latin1');
  if (start.includes('%PDF-')) return { kind: 'pdf', label: 'PDF' };
  if (start.startsWith('PK\x03\x04') || start.startsWith('PK\x05\x06')) {
    return { kind: 'zip', label: ZIP_FORMATS[ext] ? `zip archive (${ZIP_FORMATS[ext]})` : 'zip archive' };
  }
  for (const [test, label] of IMAGES) if (test(head)) return { kind: 'image', label };
  if (head[0] === 0x1f && head[1] === 0x8b) return { kind: 'binary', label: 'gzip-compressed file' };
  if (!looksLikeText(head)) return { kind: 'binary', label: ext ? `${ext.slice(1).toUpperCase()} file (binary)` : 'binary file' };
  if (ext === '.svg') return { kind: 'image', label: 'SVG image' };
  if (ext === '.csv') return { kind: 'csv', label: 'CSV table' };
  if (ext === '.tsv' || ext === '.tab') return { kind: 'tsv', label: 'TSV table' };
  if (ext === '.json' || ext === '.geojson' || ext === '.jsonl' || ext === '.ndjson') return { kind: 'json', label: 'JSON' };
  const text = head.toString('utf8').replace(/^\uFEFF/, '').trimStart().slice(0, 200).toLowerCase();
  if (ext === '.html' || ext === '.htm' || ext === '.xhtml' || text.startsWith('<!doctype html') || text.startsWith('<html')) return { kind: 'html', label: 'HTML page' };
  return { kind: 'text', label: TEXT_EXTENSIONS.has(ext) ? `${ext.slice(1).toUpperCase()} text` : 'text' };
}

/** Sizes as people say them: 812 bytes, 14 KB, 3.2 MB. */
export function sizeText(bytes: number): string {
  if (bytes < 1_000) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  if (bytes < 1_000_000) return `${Math.round(bytes / 1_000)} KB`;
  if (bytes < 1_000_000_000) return `${(bytes / 1_000_000).toFixed(bytes < 9_950_000 ? 1 : 0).replace(/\.0$/, '')} MB`;
  return `${(bytes / 1_000_000_000).toFixed(1).replace(/\.0$/, '')} GB`;
}
