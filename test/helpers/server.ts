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
/** The shared corpus beside the repository; `CORPUS_DIR` names it from a checkout elsewhere (a git worktree). */
export const CORPUS_DIR = process.env.CORPUS_DIR ? resolve(process.env.CORPUS_DIR) : resolve(here, '../../../shared/corpus/pages');
/** Installed packages, so widget fixtures load real libraries (`/modules/flatpickr/dist/flatpickr.min.js`). */
export const MODULES_DIR = resolve(here, '../../node_modules');

/** A made-up host of another site than 127.0.0.1 that reaches the test server (`TestServer.otherSite`). */
const OTHER_SITE = 'tags.other-site.test';

/**
 * Chromium flag that makes every host but 127.0.0.1 unresolvable (tests, demo and benchmarks stay offline),
 * but for one made-up host that stands for another site and reaches the local server too.
 */
export const OFFLINE_ARGS = [`--host-resolver-rules=MAP ${OTHER_SITE} 127.0.0.1, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`];

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

export interface Submission {
  path: string;
  fields: Record<string, string>;
}

export interface TestServer {
  url: (path: string) => string;
  /** The same server as another site would be seen from its pages (a tag manager's, an API's). */
  otherSite: (path: string) => string;
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

function page(res: ServerResponse, title: string, body: string): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${title}</title>${body}`);
}

/** Script that defines `<my-card>`, a web component that renders `html` in its shadow root. */
const defineCard = (html: string) =>
  `customElements.define('my-card', class extends HTMLElement { connectedCallback() { this.attachShadow({ mode: 'open' }).innerHTML = '${html}' } })`;

/** Script that inserts a script element loading `src`, as a tag manager's snippet or an app's loader does. */
const insertScript = (src: string) => `document.head.appendChild(Object.assign(document.createElement('script'), { src: ${JSON.stringify(src)} }))`;

/** Pages of `/leaves-when-told`, by key, waiting to be told to leave. */
const waitingToLeave = new Map<string, ServerResponse>();

/** Keys `/answers-once` has answered. */
const answeredOnce = new Set<string>();

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Pages that behave like the real web at its worst: stuck third-party requests, slow servers, endless
 * scripts, redirects and requests to other hosts. `?to=` names the target of a redirect or request.
 */
const MISBEHAVING: Record<string, (url: URL, res: ServerResponse, events: string[]) => void | Promise<void>> = {
  // A script-heavy app: the page holds `mb` megabytes of script objects for as long as it is shown.
  '/heavy': (url, res) =>
    page(res, 'Heavy', `<h1>Heavy</h1><script>window.held = Array.from({ length: ${Number(url.searchParams.get('mb') ?? 16) * 131072} }, (_, i) => i + 0.5)</script><button>Buy</button>`),
  '/stuck-image': (_, res) => page(res, 'Stuck image', '<h1>Stuck image</h1><img src="/never" alt="ad"><button>Buy</button>'),
  // A frame whose script fills in a field once parsed, and whose style pulls in a sheet that never answers.
  '/prefilled-stuck-import': (_, res) =>
    page(
      res,
      'Prefilled',
      `<script>addEventListener('DOMContentLoaded', () => (document.querySelector('input').value = 'Ada'))</script><style>@import url("/never");</style><h1>Prefilled</h1><input aria-label="Name"><button onclick="this.textContent = 'Bought'">Buy</button>`,
    ),
  // A widget that adds a style sheet of its own once shown, which then takes 20 s (it holds back no rendering).
  '/late-sheet-widget': (_, res) =>
    page(res, 'Widget', `<h1>Widget</h1><button onclick="this.textContent = 'Bought'">Buy</button><script>setTimeout(() => document.head.append(Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/slow-asset.css?ms=20000' })), 50)</script>`),
  // A frame whose markup is on its element (`srcdoc`), with a script that never answers halfway down.
  '/srcdoc-stuck-script': (_, res) =>
    page(res, 'Framed', `<h1>Framed</h1><iframe title="inner" srcdoc="<h1>Before the script</h1><script src='/never'></script><button>After the script</button>"></iframe>`),
  '/stuck-script': (_, res) => page(res, 'Stuck script', '<h1>Before the script</h1><script src="/never"></script><button>After the script</button>'),
  // A style sheet in the head that never answers: Chromium renders nothing until it comes (the parser is not held).
  '/stuck-head-style': (_, res) => page(res, 'Stuck style', `<link rel="stylesheet" href="/never"><h1>Stuck style</h1><button onclick="this.textContent = 'Bought'">Buy</button>`),
  // A field, then a script that never answers: what follows it is never parsed.
  // A step of an embedded form that moves on to the next by itself (`?ms`), where another element sits in its place.
  '/moves-on': (url, res) => page(res, 'Step one', `<h1>Step one</h1><button>Confirm</button><script>setTimeout(() => (location.href = '/step-two'), ${Number(url.searchParams.get('ms') ?? 1000)})</script>`),
  '/step-two': (_, res) => page(res, 'Step two', '<h1>Step two</h1><a href="/fixtures/page-a.html">Cancel the order</a>'),
  '/field-then-stuck-script': (_, res) => page(res, 'Field first', '<h1>Field first</h1><input aria-label="Name"><script src="/never"></script><button>After the script</button>'),
  // A style sheet the head's style pulls in by `@import`, that never answers: no `<link>` names it, and Chromium renders nothing until it comes.
  '/stuck-import-style': (_, res) => page(res, 'Stuck import', `<style>@import url("/never");</style><h1>Stuck import</h1><button onclick="this.textContent = 'Bought'">Buy</button>`),
  // The same before a script the parser must run, with an image that tells the server each time the page is loaded (?key=).
  '/stuck-style-before-script': (url, res) =>
    page(
      res,
      'Stuck style',
      `<img src="/event?loaded=${encodeURIComponent(url.searchParams.get('key') ?? '')}" alt=""><link rel="stylesheet" href="/never"><script>document.title = 'Ran'</script><h1>After the script</h1><button onclick="this.textContent = 'Bought'">Buy</button>`,
    ),
  // Scripts that never answer (?n=, 2 by default), each written by a script after the one before: the parser reaches
  // each only once the one before it is refused.
  '/stuck-scripts-in-turn': (url, res) => {
    const scripts = Array.from({ length: Number(url.searchParams.get('n') ?? 2) }, (_, i) => `<script>document.write('<script src="/never?script=${i + 1}"><\\/script>')</script>`);
    page(res, 'Stuck scripts', `<h1>Before the scripts</h1>${scripts.join('')}<h1>After the scripts</h1><button>Buy</button>`);
  },
  // A widget that links its style sheet again with each copy of it, each followed by a script: the sheet never
  // answers, and each script waits on it. An image records each load (?key=).
  '/stuck-style-linked-twice': (url, res) =>
    page(
      res,
      'Linked twice',
      `<img src="/event?loaded=${encodeURIComponent(url.searchParams.get('key') ?? '')}" alt=""><link rel="stylesheet" href="/never?sheet=widget"><script>document.title = 'First'</script><h1>Between the copies</h1><link rel="stylesheet" href="/never?sheet=widget"><script>document.title = 'Second'</script><h1>After the copies</h1><button onclick="this.textContent = 'Bought'">Buy</button>`,
    ),
  // A tag that writes a script whose server never answers, with a new query each time (a cache-busting timestamp, as ad
  // tags add): the page loaded again asks for a new form of it. An image records each load (?key=).
  '/stuck-cache-busted-script': (url, res) =>
    page(
      res,
      'Cache-busted script',
      `<img src="/event?loaded=${encodeURIComponent(url.searchParams.get('key') ?? '')}" alt=""><h1>Before the script</h1><script>document.write('<script src="/never?cb=' + Date.now() + Math.random() + '"><\\/script>')</script><h1>After the script</h1><button>Buy</button>`,
    ),
  // The parser goes slowly through its head (?n= scripts, each written once the one before it has run, each
  // answering after ?ms=), and a script in its body never answers.
  // With ?key, the server's events name each load of the page (`page=key`) and each head script asked for (`head=key`).
  '/slow-head-stuck-body': (url, res, events) => {
    const ms = Number(url.searchParams.get('ms') ?? 500);
    const key = url.searchParams.get('key');
    if (key) events.push(`page=${key}`);
    const tag = key ? `&key=${encodeURIComponent(key)}` : '';
    const head = Array.from({ length: Number(url.searchParams.get('n') ?? 12) }, (_, i) => `<script>document.write('<script src="/slow-asset.js?ms=${ms}&n=${i + 1}${tag}"><\\/script>')</script>`);
    page(res, 'Slow head', `${head.join('')}<h1>The body</h1><script src="/never?script=body"></script><button>Buy</button>`);
  },
  // The same slow head, and a script that never answers, inserted by its first inline script (a widget's snippet).
  '/slow-head-inserted-script': (url, res) => {
    const head = Array.from({ length: Number(url.searchParams.get('n') ?? 14) }, (_, i) => `<script>document.write('<script src="/slow-asset.js?ms=500&n=${i + 1}"><\\/script>')</script>`);
    page(res, 'Slow head', `<script>${insertScript('/never?inserted')}</script>${head.join('')}<h1>The body</h1><button>Buy</button>`);
  },
  // Six images that never answer take the HTTP/1.1 connections Chromium opens to this server (or wait for one
  // themselves), and the script the parser then waits on, which adds a button, waits behind them.
  '/behind-stuck-images': (_, res) =>
    page(
      res,
      'Behind stuck images',
      `<h1>Behind stuck images</h1>${[1, 2, 3, 4, 5, 6].map((n) => `<img src="/never?image=${n}" alt="">`).join('')}<script>const until = Date.now() + 200; while (Date.now() < until);</script><script>document.write('<script src="/slow-asset.js?ms=0&what=adds"><\\/script>')</script><button>Buy</button>`,
    ),
  // Six images that answer after 2.5 s hold every HTTP/1.1 connection to this server; only then does the script the
  // parser waits on go out, to answer 1 s later and add a button: 3.5 s after the parser met it, 1 s after it went out.
  '/behind-slow-images': (_, res) =>
    page(
      res,
      'Behind slow images',
      `<h1>Behind slow images</h1>${[1, 2, 3, 4, 5, 6].map((n) => `<img src="/slow-text?ms=2500&amp;text=${n}" alt="">`).join('')}<script>const until = Date.now() + 200; while (Date.now() < until);</script><script>document.write('<script src="/slow-asset.js?ms=1000&what=adds"><\\/script>')</script><button>Buy</button>`,
    ),
  // Six head style sheets that never answer hold every HTTP/1.1 connection Chromium opens to this server; the
  // script the parser then waits on, from the same server, answers at once but is held back behind them.
  '/stuck-sheets-full-server': (_, res) =>
    page(
      res,
      'Stuck sheets',
      `${[1, 2, 3, 4, 5, 6].map((n) => `<link rel="stylesheet" href="/never?sheet=${n}">`).join('')}<script src="/slow-asset.js?ms=0&what=title"></script><h1>After the script</h1><button onclick="this.textContent = 'Bought'">Buy</button>`,
    ),
  // The same six sheets, the last four sent a moment after the first two: the document arrives in two parts, and the
  // script the parser then waits on comes after them. With ?key, the server's events name each load (`page=key`).
  '/stuck-sheets-in-two-parts': async (url, res, events) => {
    const key = url.searchParams.get('key');
    if (key) events.push(`page=${key}`);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    const sheet = (n: number) => `<link rel="stylesheet" href="/never?sheet=${n}${key ? `&key=${encodeURIComponent(key)}` : ''}">`;
    res.write(`<!doctype html><title>Stuck sheets</title>${[1, 2].map(sheet).join('')}`);
    // A moment later, well inside the 500 ms within which sheets due alongside are waited for, even on a busy machine.
    await delay(100);
    res.end(`${[3, 4, 5, 6].map(sheet).join('')}<script src="/slow-asset.js?ms=0&what=title"></script><h1>After the script</h1><button>Buy</button>`);
  },
  // Scripts a combo loader serves from one path: two of them (an ad's, a tracker's) never answer; the page's own,
  // after them, adds a button.
  '/stuck-combo-scripts': (_, res) =>
    page(
      res,
      'Combo scripts',
      `<h1>Before the scripts</h1><script src="/combo?stuck&part=ads"></script><script src="/combo?stuck&part=tracker"></script><script src="/combo?part=app"></script><h1>After the scripts</h1>`,
    ),
  '/combo': (url, res) => {
    if (url.searchParams.has('stuck')) return;
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(`document.body.insertAdjacentHTML('beforeend', '<button>Added by the app</button>')`);
  },
  '/stuck-tracker': (_, res) => page(res, 'Stuck tracker', '<h1>Stuck tracker</h1><script async src="/never"></script><button>Subscribe</button>'),
  // While a script that never arrives holds the load, a timer fills in the field and focuses it, or makes a text
  // clickable (?what=handler): no element changes, only state.
  '/late-state': (url, res) => {
    const late = url.searchParams.get('what') === 'handler' ? `more.addEventListener('click', () => (more.textContent = 'Shown'))` : `city.value = 'Lisbon'; city.focus()`;
    page(
      res,
      'Late state',
      `<h1>Late state</h1><label>City <input id="city"></label><span id="more">Show more</span><script async src="/never"></script><script>setTimeout(() => { ${late} }, ${Number(url.searchParams.get('ms') ?? 1000)})</script>`,
    );
  },
  // A script of the page's own that arrives late (?ms=): a tracker that changes nothing, or one that adds a
  // button (?what=adds), defines a web component that renders one in its shadow root (?what=component), or
  // fills in a component already shown (?what=fill); and a page whose style sheet arrives late and shows a
  // button its inline style hides.
  '/late-script': (url, res) => {
    const shown = url.searchParams.get('what') === 'fill' ? `<script>${defineCard('<p>Loading…</p>')}</script>` : '';
    page(res, 'Late script', `<h1>Late script</h1><button>Subscribe</button><my-card></my-card>${shown}<script async src="/slow-asset.js${url.search}"></script>`);
  },
  // A page that loads a script (?src=, often of another site) as its markup says (?how=async, the default;
  // blocking: no async; inline: a tag manager's snippet inserts it), or renders what a data request brings
  // (?data=) while an image that never loads holds its load event (`load` ends the wait for data requests).
  '/loads-script': (url, res) => {
    const src = url.searchParams.get('src') ?? '';
    const tags: Record<string, string> = {
      async: `<script async src="${src}"></script>`,
      blocking: `<script src="${src}"></script>`,
      inline: `<script>${insertScript(src)}</script>`,
    };
    page(res, 'Loads a script', `<h1>Loads a script</h1><button>Subscribe</button>${tags[url.searchParams.get('how') ?? 'async']}`);
  },
  // A page that runs a script it built itself from a blob: URL, in its own document or (?in=frame) in a frame it
  // writes, as video players and ad code do.
  '/blob-script': (url, res) => {
    const run = `const blob = URL.createObjectURL(new Blob(["document.body.insertAdjacentHTML('beforeend', '<button>Built here</button>')"], { type: 'text/javascript' }));`;
    const where =
      url.searchParams.get('in') === 'frame'
        ? `const frame = document.body.appendChild(document.createElement('iframe')); frame.title = 'player'; frame.contentDocument.body.appendChild(Object.assign(frame.contentDocument.createElement('script'), { src: blob }));`
        : `document.head.appendChild(Object.assign(document.createElement('script'), { src: blob }));`;
    page(res, 'Blob script', `<h1>Blob script</h1><script>${run}${where}</script>`);
  },
  // A page that writes a widget into a frame of its own (about:blank) 100 ms after it is parsed, while its data
  // request is still out (answered after 400 ms, changing nothing).
  '/frame-written': (_, res) =>
    page(
      res,
      'Widget host',
      `<h1>Widget host</h1><iframe title="widget"></iframe><script>fetch('/slow-first-byte?ms=400'); setTimeout(() => { frames[0].document.body.innerHTML = '<button>Written late</button>' }, 100)</script>`,
    ),
  // A page with an analytics tag of another site (?src: /tracker.js there), an image that never loads (so `load`
  // never fires), and a button of its own that calls the tag's function.
  '/tagged': (url, res) =>
    page(res, 'Tagged', `<h1>Tagged</h1><img src="/never" alt="ad"><button onclick="track('own')">Send</button><script async src="${url.searchParams.get('src') ?? ''}"></script>`),
  // An analytics tag: defines track(), which posts to ?to, and sends one hit when it arrives.
  '/tracker.js': (url, res) => {
    const to = JSON.stringify(url.searchParams.get('to') ?? '/never');
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(`window.track = (what) => fetch(${to} + '&' + what, { method: 'POST', mode: 'no-cors', body: 'hit' }); track('auto');`);
  },
  // A script that loads another (?src=), as an app's bundle loads its chunks.
  '/inserts-script.js': (url, res) => {
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(insertScript(url.searchParams.get('src') ?? ''));
  },
  '/loads-data': (url, res) =>
    page(
      res,
      'Loads data',
      `<h1>Loads data</h1><img src="/never" alt="ad"><script>fetch(${JSON.stringify(url.searchParams.get('data'))}).then((r) => r.text()).then((t) => document.body.insertAdjacentHTML('beforeend', '<button>' + t + '</button>'))</script>`,
    ),
  '/slow-text': async (url, res) => {
    await delay(Number(url.searchParams.get('ms') ?? 1000));
    res.writeHead(200, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' }).end(url.searchParams.get('text') ?? 'Late text');
  },
  // A style sheet that arrives late and shows a button; with ?print, loaded for print and switched on when it arrives.
  '/late-style': (url, res) => {
    const forPrint = url.searchParams.has('print') ? ` media="print" onload="this.media='all'"` : '';
    page(res, 'Late style', `<link rel="stylesheet"${forPrint} href="/slow-asset.css${url.search}"><style>#late { display: none }</style><h1>Late style</h1><button id="late">Revealed late</button>`);
  },
  // A style sheet for print that never answers.
  '/print-style': (_, res) => page(res, 'Print style', `<link rel="stylesheet" href="no-answer?v=1&amp;x=2" media="print"><h1>Print style</h1><button>Read on</button>`),
  '/slow-asset.js': async (url, res, events) => {
    if (url.searchParams.has('key')) events.push(`head=${url.searchParams.get('key')}`);
    await delay(Number(url.searchParams.get('ms') ?? 1000));
    const bodies: Record<string, string> = {
      adds: `document.body.insertAdjacentHTML('beforeend', '<button>Added late</button>')`,
      component: defineCard('<button>Inside the card</button>'),
      fill: `document.querySelector('my-card').shadowRoot.innerHTML = '<button>Filled in late</button>'`,
      // A tag manager's way: more scripts and a preload hint, none of which shows anything.
      tags: `document.head.append(Object.assign(document.createElement('link'), { rel: 'preload', as: 'script', href: '/slow-asset.js?ms=100' }), Object.assign(document.createElement('script'), { src: '/slow-asset.js?ms=100' }), Object.assign(document.createElement('script'), { textContent: 'window.tagged = true' }))`,
      restyle: `document.head.append(Object.assign(document.createElement('style'), { textContent: 'button { display: none }' }))`,
      title: `document.title = 'Ran'`,
    };
    const body = bodies[url.searchParams.get('what') ?? ''] ?? 'window.tracked = true';
    res.writeHead(200, { 'content-type': 'text/javascript' }).end(body);
  },
  '/slow-asset.css': async (url, res) => {
    await delay(Number(url.searchParams.get('ms') ?? 1000));
    res.writeHead(200, { 'content-type': 'text/css' }).end('#late { display: inline-block !important }');
  },
  // With ?tracker, also a frame of no width (a tracker's, 90 px tall) whose document never arrives either.
  '/stuck-frame': (url, res) => {
    const tracker = url.searchParams.has('tracker') ? '<iframe src="/no-answer?tracker" title="tracker" style="width: 0; height: 90px; border: 0"></iframe>' : '';
    page(res, 'Stuck frame', `<h1>Stuck frame</h1><iframe src="/no-answer" title="ad" style="border: 1px solid gray"></iframe>${tracker}<button>Read on</button>`);
  },
  '/slow-first-byte': async (url, res) => {
    await delay(Number(url.searchParams.get('ms') ?? 3000));
    page(res, 'Slow server', '<h1>Finally</h1><button>Go</button>');
  },
  // A live page: an image that never loads, and an event stream (?fetch: read through fetch) whose first
  // message it shows; the stream then stays open, sending keep-alive comments, as such streams do.
  '/live': (url, res) => {
    const open = url.searchParams.has('fetch')
      ? `fetch('/live-events').then(async (r) => { const reader = r.body.getReader(); const { value } = await reader.read(); show(new TextDecoder().decode(value).replace(/^data: |\\n/g, '')); })`
      : `new EventSource('/live-events').onmessage = (event) => show(event.data)`;
    page(res, 'Live', `<h1>Live</h1><img src="/never" alt="ad"><p id="news"></p><script>const show = (text) => (news.textContent = text); ${open}</script>`);
  },
  '/live-events': (_, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write('data: Markets open\n\n');
    const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), 200);
    res.on('close', () => clearInterval(keepAlive));
  },
  '/polls-forever': (_, res) =>
    page(res, 'Poller', `<h1>Live feed</h1><button>Refresh</button> <a href="/fixtures/page-a.html">Archive</a><script>const poll = () => fetch('/never?' + Math.random()).catch(() => {}); poll(); setInterval(poll, 200)</script>`),
  '/streamed': async (url, res) => {
    const total = Number(url.searchParams.get('ms') ?? 2000);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.write('<!doctype html><title>Streamed</title><h1>Part 1</h1>');
    for (let part = 2; part <= 4; part++) {
      await delay(total / 3);
      res.write(`<p>Part ${part}</p>`);
    }
    res.end('<button>Done reading</button>');
  },
  // A page whose server answers the first request for each ?key, and never again (kept out of the back-forward cache).
  '/answers-once': (url, res) => {
    const key = url.searchParams.get('key') ?? '';
    if (answeredOnce.has(key)) return;
    answeredOnce.add(key);
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end('<!doctype html><title>Once</title><h1>Answered once</h1>');
  },
  // Links to a server that never answers, in this tab and in a new one, one to a slow server, a button, and a
  // menu that opens the page chosen.
  '/dead-links': (_, res) =>
    page(
      res,
      'Dead links',
      `<h1>Dead links</h1><a href="/no-answer">Dead link</a> <a href="/no-answer?tab" target="_blank">Dead tab</a> <a href="/slow-first-byte?ms=13000">Slow link</a> <button onclick="this.textContent = 'Clicked'">Still here</button>` +
        `<select aria-label="Jump to" onchange="location.href = this.value"><option value="">Choose</option><option value="/no-answer?menu">Dead page</option></select>`,
    ),
  // An SVG file opened by its address: a document with no body, with text and a link of its own.
  '/drawing.svg': (_, res) => {
    res
      .writeHead(200, { 'content-type': 'image/svg+xml' })
      .end('<svg xmlns="http://www.w3.org/2000/svg" width="400" height="120"><text x="10" y="30">Quarterly sales</text><a href="/fixtures/page-a.html"><text x="10" y="80">Open page A</text></a></svg>');
  },
  // A page that replaces itself without end: `?kind=meta` by a refresh of 0 s; `script` by script 20 ms after it
  // is parsed; `at-once` by a timer of 0 ms, before DOMContentLoaded; `while-parsed` by a script in its head,
  // before it has a body.
  '/reload-loop': (url, res) => {
    const content = '<h1>Reloading</h1><button onclick="this.textContent = \'Clicked\'">Still here</button>';
    const kind = url.searchParams.get('kind');
    if (kind === 'while-parsed') return page(res, 'Reloading', `<script>location.reload()</script>${content}`);
    if (kind === 'at-once') return page(res, 'Reloading', `${content}<script>setTimeout(() => location.reload(), 0)</script>`);
    page(res, 'Reloading', (kind === 'meta' ? '<meta http-equiv="refresh" content="0">' : '<script>setTimeout(() => location.reload(), 20)</script>') + content);
  },
  // Two pages that send the tab to each other without end.
  '/ping': (_, res) => page(res, 'Ping', `<h1>Ping</h1><script>location.href = '/pong'</script>`),
  '/pong': (_, res) => page(res, 'Pong', `<h1>Pong</h1><script>location.href = '/ping'</script>`),
  // A chain of script redirects, each to a new address (as a sign-in's hops), that ends at a page after `?k=6`.
  '/hops': (url, res) => {
    const k = Number(url.searchParams.get('k') ?? 0);
    if (k < 6) return page(res, `Hop ${k}`, `<script>location.href = '/hops?k=${k + 1}'</script><p>Redirecting…</p>`);
    page(res, 'Signed in', '<h1>Signed in</h1><button>Continue</button>');
  },
  // A page that leaves for page B by itself once told (its request to `/until-told` is answered): the moment
  // `/tell-then-slow` with the same key is asked for, whose own page then takes a second to come.
  '/leaves-when-told': (url, res) =>
    page(res, 'Leaving', `<h1>Leaving when told</h1><script>fetch('/until-told?key=${url.searchParams.get('key')}').then(() => (location.href = '/fixtures/page-b.html'))</script>`),
  '/until-told': (url, res) => {
    waitingToLeave.set(url.searchParams.get('key') ?? '', res);
  },
  '/tell-then-slow': async (url, res) => {
    waitingToLeave.get(url.searchParams.get('key') ?? '')?.end('go');
    await delay(1000);
    page(res, 'Arrived', '<h1>Arrived</h1>');
  },
  // An app's shell whose script asks for its data as it runs, answered after 300 ms, so the page has loaded
  // before it has its data (`?then`: that answer leads to a second request, for the details, as apps chain them).
  '/app-shell': (url, res) => {
    const show = `(text) => (document.querySelector('#orders').textContent = text)`;
    const ask = url.searchParams.has('then')
      ? `fetch('/app-data').then(() => fetch('/app-data?details')).then((r) => r.text()).then(${show})`
      : `fetch('/app-data').then((r) => r.text()).then(${show})`;
    page(res, 'Orders', `<h1>Orders</h1><div id="orders">Loading…</div><script>${ask}</script>`);
  },
  '/app-data': async (_, res) => {
    await delay(300);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Order 1042: 3 lamps, shipped');
  },
  // A search form that asks for its results without leaving the page; the answer takes 300 ms.
  '/search-app': (_, res) =>
    page(
      res,
      'Search',
      `<h1>Search orders</h1><button onclick="fetch('/app-data').then((r) => r.text()).then((text) => (document.querySelector('#results').textContent = text))">Search</button><div id="results"></div>`,
    ),
  // A page that asks the same URL for news every 20 ms, for ever.
  '/fast-poll': (_, res) => page(res, 'Ticker', `<h1>Ticker</h1><output>0</output><script>setInterval(() => fetch('/tick').then((r) => r.text()).then((t) => (document.querySelector('output').textContent = t)), 20)</script>`),
  '/tick': (_, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' }).end('1');
  },
  '/busy': (_, res) => page(res, 'Busy', `<h1>Busy page</h1><button onclick="while (true) {}">Freeze</button><a href="/fixtures/page-a.html">Page A</a>`),
  '/redirect': (url, res) => {
    res.writeHead(302, { location: url.searchParams.get('to') ?? '/' }).end();
  },
  '/meta-redirect': (url, res) => page(res, 'Moving', `<meta http-equiv="refresh" content="0;url=${url.searchParams.get('to')}"><h1>Moving</h1>`),
  '/js-redirect': (url, res) => page(res, 'Moving', `<h1>Moving</h1><script>location.href = ${JSON.stringify(url.searchParams.get('to'))}</script>`),
  // `?below`: the frame sits two screens down; `?later`: a button adds it.
  '/frame': (url, res) => {
    const height = url.searchParams.get('height');
    const frame = `<iframe src="${url.searchParams.get('to')}" title="inner"${height ? ` height="${Number(height)}"` : ''}></iframe>`;
    if (url.searchParams.has('later')) return page(res, 'Framed', `<h1>Framed</h1><button onclick='this.insertAdjacentHTML("afterend", ${JSON.stringify(frame)})'>Add the frame</button>`);
    const spacer = url.searchParams.has('below') ? '<div style="height: 2500px">Long text</div>' : '';
    page(res, 'Framed', `<h1>Framed</h1><button>Read on</button>${spacer}${frame}`);
  },
  '/opener': (url, res) => page(res, 'Opener', `<h1>Opener</h1><button onclick='window.open(${JSON.stringify(url.searchParams.get('to'))})'>Open it</button>`),
  '/fetcher': (url, res) =>
    page(
      res,
      'Fetcher',
      `<h1>Fetcher</h1><button onclick='fetch(${JSON.stringify(url.searchParams.get('to'))}).then((r) => r.text()).then((t) => (document.querySelector("output").textContent = t), () => (document.querySelector("output").textContent = "fetch failed"))'>Fetch it</button><output>nothing yet</output>`,
    ),
  '/form-post': (url, res) =>
    page(res, 'Poster', `<h1>Poster</h1><form method="post" action="${url.searchParams.get('to')}"><input name="note" aria-label="Note" value="hi"><button>Send</button></form>`),
  '/secret': (_, res) => page(res, 'Secret', '<h1>TOP SECRET CONTENT</h1>'),
};

export async function startServer(): Promise<TestServer> {
  const submissions: Submission[] = [];
  const events: string[] = [];
  const sockets = new Set<Socket>();
  const saves = new Map<string, number>();

  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    if (path.startsWith('/fixtures/')) return serveFile(res, FIXTURES_DIR, path.slice('/fixtures/'.length));
    if (path.startsWith('/corpus/')) return serveFile(res, CORPUS_DIR, path.slice('/corpus/'.length));
    if (path.startsWith('/modules/')) return serveFile(res, MODULES_DIR, path.slice('/modules/'.length));
    if (path === '/submit') {
      const body = req.method === 'POST' ? await readBody(req) : url.search.slice(1);
      const fields = Object.fromEntries(new URLSearchParams(body));
      submissions.push({ path, fields });
      const list = Object.keys(fields).map((k) => `<li>${k}</li>`).join('');
      res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Welcome</title><h1>Account created</h1><ul>${list}</ul>`);
      return;
    }
    if (path === '/save-here') {
      // A form that posts to its own address and is sent back there by a redirect (post, redirect, get); with
      // `auto`, the page posts it by itself as long as it has not been saved under its `key`.
      const key = url.searchParams.get('key') ?? '';
      if (req.method === 'POST') {
        await readBody(req);
        saves.set(key, (saves.get(key) ?? 0) + 1);
        res.writeHead(303, { location: `${path}${url.search}` }).end();
        return;
      }
      const count = saves.get(key) ?? 0;
      const auto = url.searchParams.has('auto') && count === 0 ? '<script>setTimeout(() => document.forms[0].submit(), 20)</script>' : '';
      return page(res, 'Notes', `<h1>Notes</h1><p>Saved ${count} times</p><form method="post"><button>Save</button></form>${auto}`);
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
    if (path === '/download/large.bin') {
      // A large file on a slow server: its first bytes, then nothing for as long as the test runs.
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-disposition': 'attachment; filename="large.bin"', 'content-length': '100000000' });
      res.write(Buffer.alloc(1024));
      return;
    }
    if (path === '/download/report.csv') {
      res.writeHead(200, { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="report.csv"' }).end('month,sales\njan,10\nfeb,12\n');
      return;
    }
    // A subresource, or a whole page, that never answers. With ?key, the server's events name each time it was asked for.
    if (path === '/never' || path === '/no-answer') {
      if (url.searchParams.has('key')) events.push(`asked=${url.search.slice(1)}`);
      return;
    }
    const misbehaving = MISBEHAVING[path];
    if (misbehaving) return misbehaving(url, res, events);
    if (path === '/missing') {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<title>Not found</title><h1>404 Not found</h1>');
      return;
    }
    // An error status with an empty body, as APIs and overloaded servers send: /empty-error?status=503.
    if (path === '/empty-error') {
      res.writeHead(Number(url.searchParams.get('status') ?? 500)).end();
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
    otherSite: (p: string) => `http://${OTHER_SITE}:${port}${p.startsWith('/') ? p : `/${p}`}`,
    submissions,
    events,
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}
