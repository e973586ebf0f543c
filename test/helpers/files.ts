/**
 * Files for the file-reading tests and the task suite, made when they run: PDFs written with pdf-lib (a real PDF
 * writer), CSVs, and a local server that serves them as a site would (inline, as attachments, slowly, cut short).
 */
import { createServer, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { PDFDocument, StandardFonts } from 'pdf-lib';

/** A PDF whose pages hold `pages[i]`'s lines, top to bottom, in Helvetica; `title` in its metadata. */
export async function makePdf(pages: string[][], title?: string): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = doc.addPage([595, 842]);
    lines.forEach((line, i) => page.drawText(line, { x: 50, y: 790 - i * 18, size: 11, font }));
  }
  if (title) doc.setTitle(title);
  return Buffer.from(await doc.save());
}

/**
 * An invoice laid out as invoices are: the table's cells drawn column by column (so the file's order is not
 * the reading order), and the total at the right margin.
 */
export async function makeInvoicePdf(spec: { number: string; items: Array<[string, string, string]>; total: string }): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([595, 842]);
  page.drawText(`Invoice ${spec.number}`, { x: 50, y: 780, size: 20, font: bold });
  const columns: Array<[number, (row: [string, string, string]) => string, string]> = [
    [50, (row) => row[0], 'Description'],
    [320, (row) => row[1], 'Qty'],
    [420, (row) => row[2], 'Amount'],
  ];
  for (const [x, cell, heading] of columns) {
    page.drawText(heading, { x, y: 730, size: 11, font: bold });
    spec.items.forEach((row, i) => page.drawText(cell(row), { x, y: 710 - i * 18, size: 11, font }));
  }
  const y = 710 - spec.items.length * 18 - 20;
  page.drawText('Total due:', { x: 320, y, size: 12, font: bold });
  page.drawText(spec.total, { x: 420, y, size: 12, font: bold });
  doc.setTitle(`Invoice ${spec.number}`);
  return Buffer.from(await doc.save());
}

/** A PDF of `pages` pages that hold only an image each (a scan): no text layer. */
export async function makeImagePdf(pages: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  // A 2×2 grey PNG.
  const png = await doc.embedPng(Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAADklEQVR4nGNgYGBgYGAAAAAFAAE/7XqvAAAAAElFTkSuQmCC', 'base64'));
  for (let i = 0; i < pages; i++) doc.addPage([595, 842]).drawImage(png, { x: 0, y: 0, width: 595, height: 842 });
  return Buffer.from(await doc.save());
}

export interface Served {
  body: Buffer | string | ((res: ServerResponse) => void);
  type: string;
  /** Sent as an attachment (Content-Disposition), with this name. */
  attachment?: string;
}

export interface FileServer {
  origin: string;
  url: (path: string) => string;
  /** The same server under another host name: another site (Chromium maps it to 127.0.0.1, see OFFLINE_ARGS). */
  close: () => Promise<void>;
}

/** Serves `routes` (path to file or HTML page) on 127.0.0.1. */
export async function serveFiles(routes: Record<string, Served>): Promise<FileServer> {
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const route = routes[new URL(req.url ?? '/', 'http://127.0.0.1').pathname];
    if (!route) return void res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><h1>Not found</h1>');
    if (typeof route.body === 'function') return route.body(res);
    res.writeHead(200, {
      'content-type': route.type,
      ...(route.attachment ? { 'content-disposition': `attachment; filename="${route.attachment}"` } : {}),
    });
    res.end(route.body);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    origin,
    url: (path) => origin + path,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
