import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/**
 * A small site the playground serves itself, so the agent has somewhere to go without the internet: a home page
 * with a link, a contact form, and a thank-you page. Every page reports each click on it to `POST /clicks`
 * (and `GET /clicks` lists them), which shows whether a click made in Studio's live view reached the page.
 *
 * PLAYGROUND_SITE_PORT picks the port (4112 by default); it listens on 127.0.0.1 only.
 */
const port = Number(process.env.PLAYGROUND_SITE_PORT ?? 4112);
export const demoSiteUrl = `http://127.0.0.1:${port}/`;

export interface RecordedClick {
  path: string;
  title: string;
  x: number;
  y: number;
  target: string;
}

const clicks: RecordedClick[] = [];
const messages: Array<{ name: string; message: string }> = [];

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** Each page has its own colour, so frames of different pages look different in the live view. */
function layout(title: string, colour: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title><style>
  body { margin: 0; font: 18px/1.5 system-ui, sans-serif; background: ${colour}; color: #111; min-height: 100vh; }
  header { background: #111; color: #fff; padding: 16px 32px; font-size: 24px; }
  main { padding: 32px; max-width: 640px; }
  label { display: block; margin-top: 16px; font-weight: 600; }
  input, textarea { font: inherit; width: 100%; padding: 8px; box-sizing: border-box; }
  button, a.button { font: inherit; margin-top: 24px; padding: 12px 24px; background: #111; color: #fff; border: 0; border-radius: 6px; text-decoration: none; display: inline-block; }
  #clicks { position: fixed; right: 16px; bottom: 16px; background: #fff; padding: 8px 12px; border-radius: 6px; }
</style></head><body><header>Demo Bakery</header><main>${body}</main>
<p id="clicks" role="status">Clicks on this page: <span>0</span></p>
<script>
  let count = 0;
  document.addEventListener('click', (event) => {
    document.querySelector('#clicks span').textContent = String(++count);
    const target = event.target.closest('a, button, input, textarea, label, h1, p, main') ?? event.target;
    const body = JSON.stringify({ path: location.pathname, title: document.title, x: event.clientX, y: event.clientY, target: target.tagName.toLowerCase() });
    navigator.sendBeacon('/clicks', new Blob([body], { type: 'application/json' }));
  }, true);
</script></body></html>`;
}

const home = layout(
  'Demo Bakery',
  '#ffe8b0',
  `<h1>Fresh bread every morning</h1>
  <p>Sourdough, rye and brioche, baked before sunrise. Questions about an order? Write to us.</p>
  <a class="button" href="/contact">Contact us</a>`,
);

const contact = layout(
  'Contact - Demo Bakery',
  '#c8f0d0',
  `<h1>Contact us</h1>
  <form method="post" action="/contact">
    <label for="name">Your name</label><input id="name" name="name" required>
    <label for="message">Message</label><textarea id="message" name="message" rows="4" required></textarea>
    <button type="submit">Send</button>
  </form>`,
);

const thanks = (name: string) =>
  layout('Thank you - Demo Bakery', '#c8dcff', `<h1>Thank you, ${escape(name)}!</h1><p>We got your message and will answer within a day.</p><a href="/">Back to the bakery</a>`);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => resolve(body));
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', demoSiteUrl).pathname;
  const html = (page: string) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
  if (req.method === 'GET' && path === '/') return void html(home);
  if (req.method === 'GET' && path === '/contact') return void html(contact);
  if (req.method === 'POST' && path === '/contact') {
    const form = new URLSearchParams(await readBody(req));
    messages.push({ name: form.get('name') ?? '', message: form.get('message') ?? '' });
    return void html(thanks(form.get('name') || 'friend'));
  }
  if (req.method === 'POST' && path === '/clicks') {
    try {
      clicks.push(JSON.parse(await readBody(req)));
    } catch {
      // A malformed report is dropped: it is only a record for the person trying the live view.
    }
    return void res.writeHead(204).end();
  }
  if (req.method === 'GET' && path === '/clicks') return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ clicks, messages }));
  res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' }).end(layout('Not found', '#eee', '<h1>Not found</h1><a href="/">Home</a>'));
}

const server = createServer((req, res) => void handle(req, res));
// A port already taken (another playground running) must not stop Studio from starting: say so and go on.
server.on('error', (error) => console.warn(`The playground's demo site could not listen on ${demoSiteUrl}: ${error.message}. Set PLAYGROUND_SITE_PORT to a free port.`));
server.listen(port, '127.0.0.1');
// The site must not keep the process alive when the server shuts down.
server.unref();
