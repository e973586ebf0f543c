/**
 * Files: tasks whose answer is in a file, not on the page. An invoice PDF downloaded to read its total, an
 * order export (CSV) downloaded to find a row, a statement PDF that opens in the tab, and a ticket downloaded on
 * one site and uploaded on another. Files are made per seed with pdf-lib; the upload page judges the bytes it
 * receives (the ticket's own number, written into the file).
 */
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { capitalize, people, WORDS, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { answerForm, answerScript, esc, js, shell } from './shell.js';


const money = (rng: Rng) => `${rng.int(10, 4_999)}.${String(rng.int(0, 99)).padStart(2, '0')}`;

/** A PDF of `pages` (lines from the top), each line at its own height; the table's cells drawn column by column. */
async function pdfOf(title: string, pages: Array<Array<string | string[]>>): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    // Cells of a row are drawn column after column, as many invoice generators do: the file's order is not the reading order.
    const columns = Math.max(1, ...lines.map((line) => (Array.isArray(line) ? line.length : 1)));
    for (let column = 0; column < columns; column++) {
      lines.forEach((line, i) => {
        const cells = Array.isArray(line) ? line : [line];
        const text = cells[column];
        if (text) page.drawText(text, { x: 50 + column * 170, y: 790 - i * 20, size: 11, font });
      });
    }
  }
  doc.setTitle(title);
  return Buffer.from(await doc.save());
}

interface InvoiceSpec {
  order: number;
  customer: string;
  items: Array<[string, string, string]>;
  total: string;
  decoys: string[];
}

const invoiceTotal: TaskDef<InvoiceSpec> = {
  id: 'file-invoice-total',
  category: 'files',
  policy: 'fileValue',
  summary: 'download an invoice PDF and enter its total due',
  generate: (rng) => {
    const items = Array.from({ length: rng.int(3, 6) }, () => [capitalize(rng.pick(WORDS)) + ' ' + rng.pick(WORDS), String(rng.int(1, 9)), money(rng)] as [string, string, string]);
    return { order: rng.int(10_000, 99_999), customer: people(rng, 1)[0]!, items, total: money(rng), decoys: [money(rng), money(rng)] };
  },
  render: (spec, { episode, fileUrl }) =>
    shell({
      title: 'Orders',
      episode,
      instruction: `Download the invoice of order ${spec.order} and enter its total due in the Answer field, then press Submit.`,
      body: `<p>Order ${spec.order} for ${esc(spec.customer)}: shipped.</p><a href="${fileUrl('invoice.pdf')}">Download invoice</a>${answerForm('Answer')}`,
      script: answerScript(spec.total),
    }),
  file: async (spec, name) =>
    name === 'invoice.pdf'
      ? {
          type: 'application/pdf',
          attachment: `invoice-${spec.order}.pdf`,
          body: await pdfOf(`Invoice ${spec.order}`, [
            [`Invoice for order ${spec.order}`, `Bill to: ${spec.customer}`, '', ['Item', 'Qty', 'Amount'], ...spec.items, '', ['Subtotal', '', spec.decoys[0]!], ['Shipping', '', spec.decoys[1]!], ['Total due', '', spec.total]],
          ]),
        }
      : undefined,
};

interface CsvSpec {
  rows: Array<{ id: string; customer: string; city: string; amount: string }>;
  target: number;
}

const csvRow: TaskDef<CsvSpec> = {
  id: 'file-csv-row',
  category: 'files',
  policy: 'fileValue',
  summary: 'download an order export (CSV) and find one order’s amount',
  generate: (rng) => {
    const names = people(rng, 40);
    const rows = names.map((customer, i) => ({ id: `ORD-${1_000 + i * 7 + rng.int(0, 6)}`, customer, city: capitalize(rng.pick(WORDS)), amount: money(rng) }));
    return { rows, target: rng.int(5, rows.length - 1) };
  },
  render: (spec, { episode, fileUrl }) =>
    shell({
      title: 'Export',
      episode,
      instruction: `Download the order export and enter the amount of order ${spec.rows[spec.target]!.id} in the Answer field, then press Submit.`,
      body: `<p>${spec.rows.length} orders this month.</p><a href="${fileUrl('orders.csv')}">Export orders (CSV)</a>${answerForm('Answer')}`,
      script: answerScript(spec.rows[spec.target]!.amount),
    }),
  file: async (spec, name) =>
    name === 'orders.csv'
      ? {
          type: 'text/csv',
          attachment: 'orders.csv',
          body: ['Order,Customer,City,Amount', ...spec.rows.map((r) => `${r.id},"${r.customer}",${r.city},${r.amount}`)].join('\n') + '\n',
        }
      : undefined,
};

interface StatementSpec {
  account: string;
  pages: string[][];
  balance: string;
}

const pdfInTab: TaskDef<StatementSpec> = {
  id: 'file-pdf-in-tab',
  category: 'files',
  policy: 'fileValue',
  summary: 'open a statement PDF served inline (it opens in the tab) and read its closing balance on its last page',
  generate: (rng) => {
    const balance = money(rng);
    const count = rng.int(2, 4);
    const pages = Array.from({ length: count }, (_, p) =>
      Array.from({ length: 25 }, (_, i) => `${String(i + 1).padStart(2, '0')}.0${p + 1} ${capitalize(rng.pick(WORDS))} ${rng.pick(WORDS)} ${money(rng)}`),
    );
    pages[count - 1]!.push('', `Closing balance: ${balance}`);
    return { account: `${rng.int(1_000, 9_999)}-${rng.int(100_000, 999_999)}`, pages, balance };
  },
  render: (spec, { episode, fileUrl }) =>
    shell({
      title: 'Statements',
      episode,
      instruction: `Open the statement of account ${spec.account} and enter its closing balance in the Answer field, then press Submit.`,
      body: `<a href="${fileUrl('statement.pdf')}">Statement ${esc(spec.account)}</a><p>After reading it, come back here.</p>${answerForm('Answer')}`,
      script: answerScript(spec.balance),
    }),
  file: async (spec, name) => (name === 'statement.pdf' ? { type: 'application/pdf', body: await pdfOf(`Statement ${spec.account}`, spec.pages) } : undefined),
};

interface TicketSpec {
  ticket: string;
}

const uploadAcross: TaskDef<TicketSpec> = {
  id: 'file-upload-across-sites',
  category: 'files',
  policy: 'fileUpload',
  summary: 'download a ticket on one site and upload that file on another site',
  generate: (rng) => ({ ticket: `T-${rng.int(100_000, 999_999)}` }),
  render: (spec, { episode, page, fileUrl, otherSite }) =>
    page === 'main'
      ? shell({
          title: 'Tickets',
          episode,
          instruction: `Download ticket ${spec.ticket}, then attach that file on the claims portal and press Send.`,
          body: `<a href="${fileUrl('ticket.pdf')}">Download ticket ${esc(spec.ticket)}</a><p><a href="${otherSite('claims')}">Claims portal</a></p>`,
        })
      : shell({
          title: 'Claims portal',
          episode,
          body: `<h1>New claim</h1><label>Ticket file <input type="file" id="doc"></label><div><button id="send">Send</button></div>`,
          // The page judges the bytes it got: a PDF that holds this ticket's number (written into the file).
          script: `$('#send').addEventListener('click', async () => {
  const file = $('#doc').files[0];
  if (!file) return report(false, 'no file attached');
  const text = new TextDecoder('latin1').decode(await file.arrayBuffer());
  report(text.startsWith('%PDF') && text.includes(${js(`ticket ${spec.ticket}`)}), 'attached ' + file.name + ' (' + file.size + ' bytes)');
});`,
        }),
  file: async (spec, name) => {
    if (name !== 'ticket.pdf') return undefined;
    const pdf = await pdfOf(`Ticket ${spec.ticket}`, [[`Ticket ${spec.ticket}`, 'Keep this ticket for your claim.']]);
    // A PDF comment after the end: readers skip it, the claims page finds the number in the bytes.
    return { type: 'application/pdf', attachment: `ticket-${spec.ticket}.pdf`, body: Buffer.concat([pdf, Buffer.from(`\n% ticket ${spec.ticket}\n`)]) };
  },
};

export const FILE_TASKS: TaskDef[] = [invoiceTotal, csvRow, pdfInTab, uploadAcross];
