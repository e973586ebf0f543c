/**
 * The local server for task pages, on 127.0.0.1 only. A page is generated on request from its task id,
 * seed and page name; the page posts its verdict to /task-result, where the harness reads it. The agent's
 * tools never see the verdict, and the harness never asks the agent's browser for it.
 */
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Rng } from './random.js';
import type { PageVerdict, RenderContext, TaskDef } from './types.js';

/** Another site than the task server's own, for tasks across sites: Chromium maps it to 127.0.0.1 (OFFLINE_ARGS). */
const OTHER_SITE = 'tags.other-site.test';

export interface TaskServer {
  origin: string;
  /** The first page of a task for one episode. */
  taskUrl: (task: string, seed: number, episode: string) => string;
  /** The verdict the page reported for an episode, if any. */
  verdict: (episode: string) => PageVerdict | undefined;
  close: () => Promise<void>;
}

/** The spec of a task for a seed: the same key on the server and in tests. */
export function specOf<S>(task: TaskDef<S>, seed: number): S {
  return task.generate(new Rng(`${task.id}#${seed}`));
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

/** Installed packages, so widget tasks load the real libraries (`/modules/flatpickr/dist/flatpickr.min.js`). */
const MODULES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../node_modules');
const TYPES: Record<string, string> = {
  '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.json': 'application/json',
  '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.woff': 'font/woff', '.png': 'image/png',
};

function serveModule(res: ServerResponse, relative: string): void {
  const file = normalize(join(MODULES_DIR, decodeURIComponent(relative)));
  if (!file.startsWith(MODULES_DIR) || !existsSync(file) || !statSync(file).isFile()) return send(res, 404, 'Not found', 'text/plain');
  // Library files do not change during a run: let the browser cache them, as it would a CDN's.
  res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'cache-control': 'max-age=3600' });
  createReadStream(file).pipe(res);
}

function send(res: ServerResponse, status: number, body = '', type = 'text/html; charset=utf-8'): void {
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
}

export async function startTaskServer(tasks: TaskDef[]): Promise<TaskServer> {
  const byId = new Map(tasks.map((task) => [task.id, task]));
  const verdicts = new Map<string, PageVerdict>();
  const sockets = new Set<Socket>();
  let origin = '';

  const pageUrl = (task: string, seed: number, episode: string, page: string) =>
    `${origin}/task/${task}?seed=${seed}&ep=${encodeURIComponent(episode)}${page === 'main' ? '' : `&page=${encodeURIComponent(page)}`}`;
  const contextOf = (task: TaskDef, seed: number, episode: string, page: string): RenderContext => ({
    page,
    episode,
    url: (other) => pageUrl(task.id, seed, episode, other),
    otherSite: (other) => pageUrl(task.id, seed, episode, other).replace('//127.0.0.1:', `//${OTHER_SITE}:`),
    fileUrl: (name) => `${origin}/task/${task.id}/file/${encodeURIComponent(name)}?seed=${seed}&ep=${encodeURIComponent(episode)}`,
  });

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/task-result' && req.method === 'POST') {
      try {
        const { episode, success, detail } = JSON.parse(await readBody(req)) as { episode: string; success: boolean; detail?: string };
        // The first verdict is final: a later click cannot turn a failure into a success.
        if (episode && !verdicts.has(episode)) verdicts.set(episode, { success: success === true, detail: String(detail ?? '') });
        send(res, 204);
      } catch {
        send(res, 400);
      }
      return;
    }
    if (url.pathname.startsWith('/modules/')) return serveModule(res, url.pathname.slice('/modules/'.length));
    const fileMatch = /^\/task\/([\w-]+)\/file\/([^/]+)$/.exec(url.pathname);
    if (fileMatch) {
      const owner = byId.get(fileMatch[1]!);
      const file = owner?.file && (await owner.file(specOf(owner, Number(url.searchParams.get('seed') ?? '1')), decodeURIComponent(fileMatch[2]!)));
      if (!file) return send(res, 404, 'Not found', 'text/plain');
      res.writeHead(200, { 'content-type': file.type, 'cache-control': 'no-store', ...(file.attachment ? { 'content-disposition': `attachment; filename="${file.attachment}"` } : {}) });
      return void res.end(file.body);
    }
    const match = /^\/task\/([\w-]+)$/.exec(url.pathname);
    const task = match ? byId.get(match[1]!) : undefined;
    if (!task) return send(res, 404, '<title>Not found</title><h1>Not found</h1>');
    const seed = Number(url.searchParams.get('seed') ?? '1');
    const episode = url.searchParams.get('ep') ?? 'none';
    const page = url.searchParams.get('page') ?? 'main';
    try {
      const html = task.render(specOf(task, seed), contextOf(task, seed, episode, page));
      send(res, 200, html);
    } catch (error) {
      send(res, 500, `<title>Error</title><pre>${String(error)}</pre>`);
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const address = server.address();
  origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    origin,
    taskUrl: (task, seed, episode) => pageUrl(task, seed, episode, 'main'),
    verdict: (episode) => verdicts.get(episode),
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
