/**
 * A local site behind walls, for the tests of secrets and of handing a page to a person: `/login` takes a
 * username and password, `/code` a one-time code of an authenticator seed (RFC 6238), and `/account` shows who
 * is signed in; `/gate` is a CAPTCHA-guarded page, passed by ticking its check box (which a person does), that then
 * shows `/gate`'s content. What the server received is kept, to check that the secrets typed reached it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { Secret, TOTP } from 'otpauth';

export interface WalledSite {
  url: (path: string) => string;
  origin: string;
  /** The password the site accepts; it has an "&" so a form's body carries it encoded. */
  password: string;
  /** The authenticator seed (base32). */
  seed: string;
  /** What the site received: the password typed, whether the code was right, whether the CAPTCHA was passed. */
  received: { password?: string; codeAccepted?: boolean; captchaPassed?: boolean };
  close: () => Promise<void>;
}

const page = (title: string, body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

function readForm(req: import('node:http').IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(new URLSearchParams(body)));
  });
}

export function startWalledSite(): Promise<WalledSite> {
  const password = `Tr0ub4dor&${randomUUID().slice(0, 8)}`;
  const seed = new Secret({ buffer: randomBytes(20).buffer }).base32;
  const totp = new TOTP({ secret: Secret.fromBase32(seed) });
  const session = `s-${randomUUID()}`;
  const pending = `p-${randomUUID()}`;
  const human = `h-${randomUUID()}`;
  const received: WalledSite['received'] = {};
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url!, 'http://x');
    const cookies = req.headers.cookie ?? '';
    const html = (body: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
    const redirect = (to: string, cookie?: string) => res.writeHead(303, { location: to, ...(cookie ? { 'set-cookie': `${cookie}; HttpOnly; Path=/` } : {}) }).end();
    if (url.pathname === '/login' && req.method === 'POST') {
      const form = await readForm(req);
      received.password = form.get('password') ?? undefined;
      if (form.get('username') === 'ada' && form.get('password') === password) return redirect('/code', `pending=${pending}`);
      return html(page('Sign in – Ledger', '<h1>Sign in</h1><p role="alert">Wrong username or password.</p><a href="/login">Try again</a>'));
    }
    if (url.pathname === '/login') {
      return html(
        page(
          'Sign in – Ledger',
          `<h1>Sign in to Ledger</h1><form method="post" action="/login"><label>Username <input name="username" autocomplete="username"></label><label>Password <input name="password" type="password" autocomplete="current-password"></label><button>Sign in</button></form>`,
        ),
      );
    }
    if (url.pathname === '/code' && req.method === 'POST') {
      const form = await readForm(req);
      received.codeAccepted = cookies.includes(`pending=${pending}`) && totp.validate({ token: form.get('code') ?? '', window: 1 }) !== null;
      if (received.codeAccepted) return redirect('/account', `session=${session}`);
      return html(page('Two-step verification – Ledger', '<h1>That code did not work</h1><a href="/code">Try again</a>'));
    }
    if (url.pathname === '/code') {
      return html(
        page(
          'Two-step verification – Ledger',
          `<h1>Enter the code from your authenticator app</h1><form method="post" action="/code"><label>Code <input name="code" inputmode="numeric" autocomplete="one-time-code"></label><button>Verify</button></form>`,
        ),
      );
    }
    if (url.pathname === '/account') {
      if (!cookies.includes(`session=${session}`)) return redirect('/login');
      return html(page('Your account – Ledger', '<h1>Signed in as Ada</h1><p>Balance: 1,204.50 EUR</p><a href="/statements">Statements</a>'));
    }
    if (url.pathname === '/gate/pass' && req.method === 'POST') {
      received.captchaPassed = true;
      return redirect('/gate', `human=${human}`);
    }
    if (url.pathname === '/gate') {
      if (cookies.includes(`human=${human}`)) return html(page('Timetable – Harbour Ferries', '<h1>Winter timetable</h1><p>Ferries leave every 40 minutes from 6:10.</p><a href="/gate/fares">Fares</a>'));
      // A widget in the shape of hCaptcha's, served by the site itself (no network here): a box a person ticks.
      return html(
        page(
          'Harbour Ferries',
          `<h1>Harbour Ferries</h1><p>Please complete the check to see the timetable.</p><form method="post" action="/gate/pass"><div class="h-captcha" data-sitekey="10000000-ffff-ffff-ffff-000000000001" style="width:303px;height:78px;border:1px solid #ccc;display:flex;align-items:center;gap:8px;padding:0 12px"><button id="tick" aria-label="I am human" style="width:28px;height:28px"></button><span>I am human</span></div></form>`,
        ),
      );
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end(page('Not found', '<h1>Not found</h1>'));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      const origin = `http://127.0.0.1:${port}`;
      resolve({
        url: (path) => `${origin}${path}`,
        origin,
        password,
        seed,
        received,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    }),
  );
}
