/**
 * A local HTTP server for tests and benchmarks: fixtures, the shared corpus of real pages, and a few
 * misbehaving routes. Listens on 127.0.0.1 only.
 */
import { createReadStream, existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
export const FIXTURES_DIR = resolve(here, '../fixtures');
export const CORPUS_DIR = resolve(here, '../../../shared/corpus/pages');

/** Chromium flag that makes every host but 127.0.0.1 unresolvable: tests, demo and benchmarks stay offline. */
export const OFFLINE_ARGS = ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'];

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript' };

export interface Submission {
  path: string;
  fields: Record<string, string>;
}

export interface TestServer {
  url: (path: string) => string;
  origin: string;
  submissions: Submission[];
  events: string[];
  close: () => Promise<void>;
}

function serveFile(res: ServerResponse, root: string, relative: string): void {
  const file = normalize(join(root, decodeURIComponent(relative)));
  if (!file.startsWith(root) || !existsSync(file)) {
    res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><h1>404 Not found</h1>');
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolveBody) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolveBody(body));
  });
}

export async function startServer(): Promise<TestServer> {
  const submissions: Submission[] = [];
  const events: string[] = [];
  const sockets = new Set<Socket>();

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (path.startsWith('/fixtures/')) return serveFile(res, FIXTURES_DIR, path.slice('/fixtures/'.length));
    if (path.startsWith('/corpus/')) return serveFile(res, CORPUS_DIR, path.slice('/corpus/'.length));
    if (path === '/submit') {
      const body = req.method === 'POST' ? await readBody(req) : url.search.slice(1);
      const fields = Object.fromEntries(new URLSearchParams(body));
      submissions.push({ path, fields });
      const list = Object.keys(fields).map((k) => `<li>${k}</li>`).join('');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Welcome</title><h1>Account created</h1><ul>${list}</ul>`);
      return;
    }
    if (path === '/event') {
      events.push(url.search.slice(1));
      res.writeHead(204).end();
      return;
    }
    if (path === '/hang') {
      // Headers and the start of a page, then nothing: the load event never fires.
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<title>Still loading</title><h1>Half a page</h1><button>Early button</button>');
      res.write(`<img src="/never">`);
      return;
    }
    if (path === '/download/report.csv') {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' }).end('month,sales\njan,10\nfeb,12\n');
      return;
    }
    if (path === '/never') return; // a subresource that never answers
    if (path === '/missing') {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><h1>404 Not found</h1>');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><h1>404 Not found</h1>');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (p: string) => `${origin}${p.startsWith('/') ? p : `/${p}`}`,
    submissions,
    events,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
