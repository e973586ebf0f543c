/**
 * A local site with a login, for the tests of conversations carried between processes: `/login` signs Ada in with
 * an HttpOnly session cookie (so only the browser's cookie jar carries it), `/step/<n>` shows her where she is,
 * and `/hold/<name>?ms=` answers late, logging when each such request came in and was answered.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';

export interface LoginSite {
  url: (path: string) => string;
  /** The session cookie's value: stored state must never hold it in clear. */
  secret: string;
  /** `enter <name>` and `leave <name>` of each `/hold/<name>` request, in order. */
  events: string[];
  close: () => Promise<void>;
}

export function startLoginSite(): Promise<LoginSite> {
  const secret = `sid-${randomUUID()}`;
  const events: string[] = [];
  const server: Server = createServer((req, res) => {
    const signedIn = (req.headers.cookie ?? '').includes(`sid=${secret}`);
    const page = (title: string, body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${title}</title>${body}`);
    const path = new URL(req.url!, 'http://x').pathname;
    if (path === '/login') {
      res.writeHead(303, { 'set-cookie': `sid=${secret}; HttpOnly; Path=/; Max-Age=3600`, location: '/step/1' }).end();
    } else if (path.startsWith('/step/')) {
      const n = Number(path.slice('/step/'.length));
      if (!signedIn) page('Signed out', '<h1>Signed out</h1><a href="/login">Sign in</a>');
      else page(`Step ${n}`, `<h1>Signed in as Ada: step ${n}</h1><a href="/step/${n + 1}">Next step</a><label>Note <input name="note"></label>`);
    } else if (path.startsWith('/hold/')) {
      // A page that takes its time, to keep a call running; the log says when each such call was in the browser.
      const name = path.slice('/hold/'.length);
      events.push(`enter ${name}`);
      setTimeout(() => {
        events.push(`leave ${name}`);
        page(`Held ${name}`, `<h1>${signedIn ? 'Signed in as Ada' : 'Signed out'}: held ${name}</h1>`);
      }, Number(new URL(req.url!, 'http://x').searchParams.get('ms') ?? 1_000));
    } else {
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: (path) => `http://127.0.0.1:${port}${path}`, secret, events, close: () => new Promise<void>((done) => server.close(() => done())) });
    }),
  );
}
