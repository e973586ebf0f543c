/**
 * A small local site for the examples, so they run with no network: a sign-up form (`/signup`) that records what
 * it receives, and a long article (`/article`) to scroll. Listens on 127.0.0.1, on a free port.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ExampleSite {
  url: (path: string) => string;
  /** The forms the site received, newest last. */
  submissions: Array<Record<string, string>>;
  close: () => Promise<void>;
}

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

const SIGNUP = page(
  'Create your account',
  `<h1>Create your account</h1>
  <p>Fields marked * are required.</p>
  <form action="/signup" method="post">
    <p><label>Full name * <input name="name" required></label></p>
    <p><label>Email * <input name="email" type="email" required></label></p>
    <p><label>Password * <input name="password" type="password" required></label></p>
    <p><label><input type="checkbox" name="terms" value="yes"> I accept the terms</label></p>
    <button type="submit">Create account</button>
  </form>
  <p><a href="/article">Read about us</a></p>`,
);

const ARTICLE = page(
  'About us',
  `<style>section { min-height: 500px; }</style><h1>About us</h1>` +
    ['Where we started', 'What we make', 'Who we are', 'Where to find us', 'Work with us']
      .map((heading, i) => `<section><h2>${heading}</h2><p>Part ${i + 1} of our story, long enough to need scrolling.</p></section>`)
      .join(''),
);

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

export async function startSite(): Promise<ExampleSite> {
  const submissions: Array<Record<string, string>> = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const html = (status: number, body: string) => res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    if (req.method === 'POST' && path === '/signup') {
      const fields = Object.fromEntries(new URLSearchParams(await readBody(req)));
      submissions.push(fields);
      return html(200, page('Welcome', `<h1>Welcome, ${escape(fields.name ?? '')}!</h1><p>Your account is ready.</p>`));
    }
    if (path === '/signup' || path === '/') return html(200, SIGNUP);
    if (path === '/article') return html(200, ARTICLE);
    return html(404, page('Not found', '<h1>Not found</h1>'));
  };
  const server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (path) => `${origin}${path}`,
    submissions,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
