/**
 * A varied set of PDFs and CSVs for the held-out file check, made on the fly from a seed: the layouts PDF
 * generators and spreadsheet exports produce that a reader gets wrong (columns, tables drawn column by column,
 * words placed one by one, rotated pages, tiny and huge type; quoted cells with commas and line breaks, a BOM,
 * semicolons, Windows-1252, wide rows, thousands of rows). Each file comes with the text its generator drew (a
 * PDF: the pieces per page) or the cells it wrote (a CSV), the fallback truth when `pdftotext` is not installed.
 *
 * Text outside Latin-1: the 14 standard PDF fonts encode WinAnsi only (Latin-1 and a few more), so Greek is drawn
 * with the standard Symbol font (its own encoding); Cyrillic, Arabic or CJK in a PDF would need an embedded font
 * (`@pdf-lib/fontkit`, not a dependency here). The CSVs carry every script.
 */
import { degrees, PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from 'pdf-lib';

export interface GeneratedFile {
  name: string;
  body: Buffer;
  /** A PDF: the text drawn on each page (each a piece drawn in one go). */
  pages?: string[][];
  /** A CSV or TSV: its rows, header first, as written. */
  rows?: string[][];
}

/** A small seeded generator (mulberry32), so a seed makes the same files. */
function rngOf(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(list: T[]) => list[Math.floor(next() * list.length)]! };
}
type Rng = ReturnType<typeof rngOf>;

const WORDS = (
  'account balance quarterly revenue shipment warehouse customer invoice amount period statement region ' +
  'delivery contract clause payment schedule interest margin freight supplier audit ledger tax refund ' +
  'overview summary forecast budget approval review north south eastern western growth decline net gross ' +
  'the of and to in for with on at by from as is was were be are'
).split(' ');
const ACCENTED = ['café', 'naïve', 'Straße', 'Øresund', 'Ærø', 'façade', 'jalapeño', 'Köln', 'Málaga', 'œuvre', 'Šibenik', 'Zürich', 'résumé', 'São', 'Þór'];

function sentence(rng: Rng, words: number): string {
  const out = Array.from({ length: words }, () => rng.pick(WORDS));
  if (rng.next() < 0.3) out[rng.int(0, out.length - 1)] = rng.pick(ACCENTED);
  if (rng.next() < 0.3) out.push(`${rng.int(1, 99_999).toLocaleString('en-US')}.${String(rng.int(0, 99)).padStart(2, '0')}`);
  if (rng.next() < 0.2) out.push(rng.pick(['(see note 4)', '[draft]', '— final', '€ 1,204.50', '“quoted”', '50% off', 'a/b & c;']));
  const text = out.join(' ');
  return text[0]!.toUpperCase() + text.slice(1);
}

/** A page and the record of what is drawn on it. */
class Drawn {
  readonly pages: string[][] = [];
  constructor(readonly doc: PDFDocument) {}
  page(size: [number, number] = [595, 842]): { page: PDFPage; text: (s: string, options: Parameters<PDFPage['drawText']>[1]) => void } {
    const page = this.doc.addPage(size);
    const texts: string[] = [];
    this.pages.push(texts);
    return {
      page,
      text: (s, options) => {
        page.drawText(s, options);
        texts.push(s);
      },
    };
  }
}

async function pdf(name: string, build: (drawn: Drawn, fonts: Record<string, PDFFont>) => void | Promise<void>, title?: string): Promise<GeneratedFile> {
  const doc = await PDFDocument.create();
  const fonts = {
    helvetica: await doc.embedFont(StandardFonts.Helvetica),
    bold: await doc.embedFont(StandardFonts.HelveticaBold),
    times: await doc.embedFont(StandardFonts.TimesRoman),
    courier: await doc.embedFont(StandardFonts.Courier),
    symbol: await doc.embedFont(StandardFonts.Symbol),
  };
  const drawn = new Drawn(doc);
  await build(drawn, fonts);
  if (title) doc.setTitle(title);
  return { name, body: Buffer.from(await doc.save()), pages: drawn.pages };
}

/** PDFs: `scale` 1 is the full set; smaller makes fewer pages and rows (the test's set). */
export async function generatePdfs(seed: number, scale = 1): Promise<GeneratedFile[]> {
  const rng = rngOf(seed);
  const n = (full: number) => Math.max(1, Math.round(full * scale));
  const files: GeneratedFile[] = [];

  // Many pages of prose, in Times, with a running header and a page number at the foot.
  files.push(
    await pdf(`report-${seed}.pdf`, (d, f) => {
      for (let p = 0; p < n(30); p++) {
        const { text } = d.page();
        text(`Quarterly report ${seed} – chapter ${p + 1}`, { x: 50, y: 800, size: 9, font: f.helvetica! });
        for (let i = 0; i < 44; i++) text(sentence(rng, rng.int(4, 13)), { x: 50, y: 770 - i * 16, size: 10, font: f.times! });
        text(`Page ${p + 1}`, { x: 280, y: 30, size: 8, font: f.helvetica! });
      }
    }, `Report ${seed}`),
  );

  // Two columns at the same heights, then two columns whose lines do not share baselines.
  files.push(
    await pdf(`columns-${seed}.pdf`, (d, f) => {
      for (let p = 0; p < n(4); p++) {
        const { text } = d.page();
        const offset = p % 2 ? 7 : 0;
        // Each column's lines stay inside its 250 points, as a layout engine wraps them.
        const within = (line: string): string => (f.helvetica!.widthOfTextAtSize(line, 10) <= 250 ? line : within(line.split(' ').slice(0, -1).join(' ')));
        for (let i = 0; i < 40; i++) {
          text(within(sentence(rng, rng.int(3, 6))), { x: 50, y: 780 - i * 18, size: 10, font: f.helvetica! });
          text(within(sentence(rng, rng.int(3, 6))), { x: 320, y: 780 - i * 18 - offset, size: 10, font: f.helvetica! });
        }
      }
    }),
  );

  // Long lines: small type across a landscape A3 page, some longer than a part's longest line.
  files.push(
    await pdf(`long-lines-${seed}.pdf`, (d, f) => {
      for (let p = 0; p < n(2); p++) {
        const { text } = d.page([1190, 842]);
        for (let i = 0; i < 30; i++) {
          const size = i % 3 === 0 ? 3 : 6;
          // Up to the page's right margin: text past the page's edge is not shown, and no reader gives it.
          let line = sentence(rng, 8);
          for (const word of Array.from({ length: 400 }, () => sentence(rng, 1))) {
            if (f.helvetica!.widthOfTextAtSize(`${line} ${word}`, size) > 1110) break;
            line += ` ${word}`;
          }
          text(line, { x: 40, y: 800 - i * 26, size, font: f.helvetica! });
        }
      }
    }),
  );

  // Tiny to huge type, and a line of mixed sizes (a big label with a small footnote mark and note).
  files.push(
    await pdf(`sizes-${seed}.pdf`, (d, f) => {
      const { text } = d.page();
      let y = 800;
      for (const size of [4, 5, 6, 8, 12, 18, 24, 36, 48, 72]) {
        const line = size >= 36 ? sentence(rng, 2).slice(0, Math.floor(900 / size)) : sentence(rng, 6);
        text(line, { x: 40, y, size, font: f.helvetica! });
        y -= size * 1.3 + 8;
      }
      text('Total due', { x: 40, y: 90, size: 28, font: f.bold! });
      text('1', { x: 180, y: 104, size: 8, font: f.helvetica! });
      text(`${rng.int(100, 9_999)}.${rng.int(10, 99)} EUR`, { x: 300, y: 90, size: 28, font: f.bold! });
      text('1 Including the fees of the second quarter.', { x: 40, y: 50, size: 6, font: f.helvetica! });
    }),
  );

  // A table with borders, its cells drawn column by column, numbers right-aligned; two pages.
  files.push(
    await pdf(`table-${seed}.pdf`, (d, f) => {
      const columns = [
        { x: 40, w: 60, head: 'Date' },
        { x: 100, w: 170, head: 'Description' },
        { x: 270, w: 90, head: 'Reference' },
        { x: 360, w: 70, head: 'Debit', right: true },
        { x: 430, w: 70, head: 'Credit', right: true },
        { x: 500, w: 60, head: 'Balance', right: true },
      ];
      for (let p = 0; p < n(2); p++) {
        const { page, text } = d.page();
        const rows = Array.from({ length: 30 }, (_, i) => [
          `2026-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`,
          `${rng.pick(WORDS)} ${rng.pick(WORDS)} ${i % 4 === 0 ? rng.pick(ACCENTED) : ''}`.trim(),
          `REF-${rng.int(10_000, 99_999)}`,
          rng.next() < 0.5 ? rng.int(1, 9_999).toFixed(2) : '',
          rng.next() < 0.5 ? rng.int(1, 9_999).toFixed(2) : '',
          rng.int(100, 99_999).toFixed(2),
        ]);
        for (const [c, column] of columns.entries()) {
          text(column.head, { x: column.x + 3, y: 780, size: 9, font: f.bold! });
          rows.forEach((row, r) => {
            const cell = row[c]!;
            if (!cell) return;
            const width = f.helvetica!.widthOfTextAtSize(cell, 8);
            text(cell, { x: column.right ? column.x + column.w - 3 - width : column.x + 3, y: 760 - r * 20, size: 8, font: f.helvetica! });
          });
        }
        for (let r = 0; r <= 31; r++) page.drawLine({ start: { x: 40, y: 794 - r * 20 }, end: { x: 560, y: 794 - r * 20 }, thickness: 0.5, color: rgb(0.5, 0.5, 0.5) });
        for (const column of [...columns.map((c) => c.x), 560]) page.drawLine({ start: { x: column, y: 794 }, end: { x: column, y: 174 }, thickness: 0.5, color: rgb(0.5, 0.5, 0.5) });
      }
    }),
  );

  // Justified text: every word placed on its own (no space characters); a heading drawn letter by letter.
  files.push(
    await pdf(`justified-${seed}.pdf`, (d, f) => {
      for (let p = 0; p < n(2); p++) {
        const { text } = d.page();
        let x = 50;
        for (const ch of `Section ${p + 1} heading`) {
          text(ch, { x, y: 800, size: 16, font: f.bold! });
          x += f.bold!.widthOfTextAtSize(ch, 16);
        }
        for (let i = 0; i < 40; i++) {
          const words = Array.from({ length: rng.int(6, 10) }, () => rng.pick(WORDS));
          const widths = words.map((w) => f.times!.widthOfTextAtSize(w, 11));
          const gap = (495 - widths.reduce((a, b) => a + b, 0)) / (words.length - 1);
          let at = 50;
          words.forEach((w, k) => {
            text(w, { x: at, y: 770 - i * 17, size: 11, font: f.times! });
            at += widths[k]! + gap;
          });
        }
      }
    }),
  );

  // Rotated pages (90, 180, 270 degrees) and text drawn at an angle on an upright page.
  files.push(
    await pdf(`rotated-${seed}.pdf`, (d, f) => {
      for (const angle of [90, 180, 270, 0]) {
        const { page, text } = d.page();
        page.setRotation(degrees(angle));
        for (let i = 0; i < 12; i++) text(sentence(rng, 6), { x: 60, y: 760 - i * 20, size: 11, font: f.helvetica! });
        if (angle === 0) text('Margin note drawn upwards', { x: 30, y: 300, size: 9, font: f.helvetica!, rotate: degrees(90) });
      }
    }),
  );

  // Latin-1 and WinAnsi punctuation, Greek in the Symbol font, hyphenated words at line ends.
  files.push(
    await pdf(`scripts-${seed}.pdf`, (d, f) => {
      const { text } = d.page();
      const latin = ['Ça coûte 12,50 € — «très» cher.', 'Grüße aus Köln, Straße 5; Øre & Ærø.', 'Señor Núñez ¿qué tal? ¡Olé!', '“Smart” ‘quotes’ … and – dashes — too.', 'Œuvre, Šibenik, Žilina, Ÿ, ß, æ, ð, þ.'];
      latin.forEach((line, i) => text(line, { x: 50, y: 790 - i * 20, size: 12, font: f.helvetica! }));
      const greek = ['αβγδε ζηθ', 'ΔΣΩ λμπ', 'π ≈ 3.14 ∑ ∞'];
      greek.forEach((line, i) => text(line, { x: 50, y: 660 - i * 20, size: 12, font: f.symbol! }));
      const hyphenated = ['The quarterly state-', 'ment shows the reconcil-', 'iation of every account.'];
      hyphenated.forEach((line, i) => text(line, { x: 50, y: 560 - i * 15, size: 11, font: f.times! }));
      text('Fixed   width   with   spaces', { x: 50, y: 480, size: 10, font: f.courier! });
    }),
  );
  return files;
}

/** RFC 4180 quoting of one cell for `delimiter`. */
function quoted(cell: string, delimiter: string): string {
  return /["\r\n]/.test(cell) || cell.includes(delimiter) || /^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

function csv(rows: string[][], delimiter = ',', newline = '\n'): string {
  return rows.map((row) => row.map((c) => quoted(c, delimiter)).join(delimiter)).join(newline) + newline;
}

const UNICODE = ['Ελληνικά', 'Русский текст', 'العربية', 'עברית', '中文字符', '日本語のテキスト', '한국어', 'हिन्दी', 'emoji 🎉👍🏽', 'e\u0301 combining', 'Ünïcödé'];

/** CSVs and TSVs: `scale` 1 is the full set; smaller makes fewer rows. */
export function generateTables(seed: number, scale = 1): GeneratedFile[] {
  const rng = rngOf(seed + 1000);
  const n = (full: number) => Math.max(2, Math.round(full * scale));
  const files: GeneratedFile[] = [];
  const add = (name: string, rows: string[][], body: string | Buffer) => files.push({ name, rows, body: Buffer.isBuffer(body) ? body : Buffer.from(body) });

  // Quoted cells: commas, quotes, line breaks (LF and CRLF), empty cells, every script, spaces at the ends.
  const tricky = () =>
    rng.pick([
      `${rng.pick(WORDS)}, ${rng.pick(WORDS)}`,
      `She said "${rng.pick(WORDS)}"`,
      `line one\nline two`,
      `first\r\nsecond`,
      '',
      rng.pick(UNICODE),
      `  padded ${rng.pick(WORDS)}  `,
      `a | b`,
      `${rng.int(-9_999, 9_999)}.${rng.int(0, 99)}`,
      `"${rng.pick(WORDS)}"`,
      rng.pick(WORDS),
    ]);
  const quotedRows = [['id', 'name', 'note, with comma', 'amount', 'empty'], ...Array.from({ length: n(60) }, (_, i) => [String(i + 1), tricky(), tricky(), tricky(), i % 3 ? '' : tricky()])];
  add(`quoted-${seed}.csv`, quotedRows, csv(quotedRows));

  // A UTF-8 byte-order mark and CRLF line ends, as Excel writes them.
  const bomRows = [['Kunde', 'Stadt', 'Betrag'], ...Array.from({ length: n(40) }, () => [rng.pick(ACCENTED) + ' ' + rng.pick(WORDS), rng.pick(UNICODE), `${rng.int(1, 999)}.${rng.int(10, 99)}`])];
  add(`bom-${seed}.csv`, bomRows, '\uFEFF' + csv(bomRows, ',', '\r\n'));

  // Semicolons and decimal commas, as a European spreadsheet exports.
  const euroRows = [['Datum', 'Beschreibung', 'Betrag', 'Saldo'], ...Array.from({ length: n(50) }, () => [`${rng.int(1, 28)}.${rng.int(1, 12)}.2026`, `${rng.pick(WORDS)}; ${rng.pick(ACCENTED)}`, `${rng.int(-999, 999)},${rng.int(10, 99)}`, `${rng.int(1, 99)}.${rng.int(100, 999)},${rng.int(10, 99)}`])];
  add(`semicolon-${seed}.csv`, euroRows, csv(euroRows, ';'));

  // Windows-1252 bytes, not UTF-8 (an older spreadsheet's export).
  const latinRows = [['name', 'city'], ...Array.from({ length: n(20) }, () => [rng.pick(ACCENTED), `${rng.pick(['Zürich', 'Málaga', 'Köln', 'Ærø'])} — ${rng.int(1, 99)} €`])];
  add(`latin1-${seed}.csv`, latinRows, encode1252(csv(latinRows)));

  // Wide rows: 60 columns, some cells long.
  const wideHeader = Array.from({ length: 60 }, (_, i) => `column_${i + 1}`);
  const wideRows = [wideHeader, ...Array.from({ length: n(25) }, () => wideHeader.map((_, c) => (c % 17 === 5 ? sentence(rng, 30) : c % 7 === 0 ? '' : rng.pick(WORDS) + rng.int(0, 999))))];
  add(`wide-${seed}.csv`, wideRows, csv(wideRows));

  // Many rows: thousands of parts' worth of rows.
  const manyRows = [['row', 'sku', 'product', 'qty', 'price', 'warehouse', 'status', 'updated'], ...Array.from({ length: n(6_000) }, (_, i) => [String(i + 1), `SKU-${rng.int(100_000, 999_999)}`, `${rng.pick(WORDS)} ${rng.pick(WORDS)}`, String(rng.int(0, 500)), `${rng.int(1, 999)}.${rng.int(10, 99)}`, rng.pick(['north', 'south', 'east', 'west']), rng.pick(['ok', 'late', 'lost', '']), `2026-${String(rng.int(1, 12)).padStart(2, '0')}-${String(rng.int(1, 28)).padStart(2, '0')}`])];
  add(`many-rows-${seed}.csv`, manyRows, csv(manyRows));

  // Tab-separated, with a quote inside a cell, a comma and a semicolon that are not delimiters.
  const tsvRows = [['title', 'size', 'remark'], ...Array.from({ length: n(40) }, () => [`${rng.pick(WORDS)}, ${rng.pick(WORDS)}`, `${rng.int(10, 99)}" screen`, `${rng.pick(UNICODE)}; ${rng.pick(WORDS)}`])];
  add(`data-${seed}.tsv`, tsvRows, tsvRows.map((row) => row.join('\t')).join('\n') + '\n');

  return files;
}

/** Windows-1252 bytes of Latin-1 text (and the euro sign and dashes it adds). */
function encode1252(text: string): Buffer {
  const extra: Record<string, number> = { '€': 0x80, '—': 0x97, '–': 0x96, '“': 0x93, '”': 0x94, 'Œ': 0x8c, 'œ': 0x9c, 'Š': 0x8a, 'š': 0x9a };
  return Buffer.from([...text].map((ch) => extra[ch] ?? (ch.charCodeAt(0) < 256 ? ch.charCodeAt(0) : 0x3f)));
}
