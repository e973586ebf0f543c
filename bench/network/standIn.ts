/**
 * A stand-in for the internet, on one local port. Chromium is told to resolve every host but 127.0.0.1
 * to this port (`resolverArgs`), so a saved page's ads, analytics, fonts and CDN files arrive here instead
 * of failing at DNS. Each such request is answered after a latency drawn from a log-normal distribution,
 * or never answered at all for a small share of URLs, as happens on the real web. Answers are small valid
 * bodies of the type asked for (empty script or style sheet, a 1x1 GIF, `{}`, an empty HTML document).
 *
 * Latency and stuckness are a pure function of (seed, host + path): every browser pointed at a stand-in
 * with the same seed meets the same slow and the same stuck requests, whichever order it asks in.
 *
 * Requests for the page's own host (127.0.0.1) go to the `local` handler, so the same port also serves the
 * pages themselves, with no added latency. One stand-in per system under test keeps the request logs apart.
 */
import { createHash } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type RequestListener, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createSecureServer as createHttp2Server } from 'node:http2';
import { createServer as createNetServer, type Socket } from 'node:net';
import { selfSignedCertificate } from './cert.js';

export interface LatencyModel {
  /** Median time to the first byte of an answer, ms. */
  medianMs: number;
  /** Standard deviation of the latency's natural logarithm: 0.8 gives p95 ≈ 3.7 × median. */
  sigma: number;
  /** Longest latency; the few draws above it are cut to it. */
  maxMs: number;
}

/** Median 80 ms, p90 ≈ 220 ms, p95 ≈ 300 ms, p99 ≈ 515 ms, nothing over 600 ms. */
export const DEFAULT_LATENCY: LatencyModel = { medianMs: 80, sigma: 0.8, maxMs: 600 };
export const DEFAULT_STUCK_SHARE = 0.04;
export const DEFAULT_SEED = 'network-bench-1';

export interface StandInOptions {
  seed?: string;
  /** Share of third-party URLs (0..1) that are never answered. */
  stuckShare?: number;
  latency?: LatencyModel;
  /** Serves requests for 127.0.0.1 (the pages themselves). Without it they get a 404. */
  local?: RequestListener;
  /**
   * How https hosts answer: `http1` (the default, kept so that runs stay comparable) gives each host the six
   * HTTP/1.1 connections Chromium opens to it, so a host's unanswered requests hold its connections and its
   * other requests queue behind them. `h2` speaks HTTP/2 as the real web's CDNs do: one connection per host,
   * each request a stream of its own, so an unanswered one holds up nothing else. Plain http stays HTTP/1.1
   * either way, as it does on the real web.
   */
  protocol?: 'http1' | 'h2';
  /**
   * `no-store` (the default): every request goes to the stand-in, each time it is made. `max-age` lets the
   * browser keep scripts, style sheets, images and fonts for an hour, as CDNs do: a file asked for again (by the
   * next page of the run, or by the same page loaded again) comes from its cache. Documents and data are
   * never kept.
   */
  caching?: 'no-store' | 'max-age';
}

export interface Fate {
  stuck: boolean;
  delayMs: number;
}

/** One third-party request as the stand-in saw it. */
export interface ThirdPartyRequest {
  /** ms on the performance clock (performance.now()) when the request arrived. */
  at: number;
  method: string;
  /** As the page asked for it: scheme, host, path and query. */
  url: string;
  host: string;
  /** What the browser wants it for (Sec-Fetch-Dest: script, image, empty for fetch/XHR...); empty over plain http. */
  dest: string;
  /** What it was answered as (or would have been, when stuck). */
  kind: Kind;
  stuck: boolean;
  delayMs: number;
  /** Set when the answer has been sent; stuck requests never get one. */
  answeredAt?: number;
}

/** A request for the local pages. */
export interface LocalRequest {
  at: number;
  path: string;
  /** Set when the whole answer has been written to the socket. */
  finishedAt?: number;
}

export interface StandIn {
  port: number;
  /** http://127.0.0.1:<port>: where the local pages are. */
  origin: string;
  url(path: string): string;
  /** The Chromium flags that route every other host here and accept its self-signed certificate. */
  resolverArgs: string[];
  thirdParty: ThirdPartyRequest[];
  local: LocalRequest[];
  fateOf(url: string): Fate;
  close(): Promise<void>;
}

/**
 * Seeded and deterministic. The query string is left out: pages add timestamps and random numbers to
 * tracking URLs, and a request must be stuck or slow for every system alike.
 */
export function fateOf(url: string, seed: string, stuckShare: number, latency: LatencyModel): Fate {
  const parsed = new URL(url);
  const digest = createHash('sha256').update(`${seed}\0${parsed.host}${parsed.pathname}`).digest();
  // Three independent uniforms in (0, 1] from the digest's first twelve bytes.
  const uniform = (i: number) => (digest.readUInt32BE(i * 4) + 1) / 2 ** 32;
  const stuck = uniform(0) <= stuckShare;
  // Box-Muller turns two uniforms into one standard normal draw.
  const normal = Math.sqrt(-2 * Math.log(uniform(1))) * Math.cos(2 * Math.PI * uniform(2));
  const delayMs = Math.min(latency.maxMs, Math.round(latency.medianMs * Math.exp(latency.sigma * normal)));
  return { stuck, delayMs };
}

// The smallest GIF there is: 1x1, transparent.
const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

export type Kind = 'script' | 'style' | 'image' | 'font' | 'html' | 'json' | 'other';

const BODIES: Record<Kind, { type: string; body: string | Buffer }> = {
  script: { type: 'text/javascript', body: '' },
  style: { type: 'text/css', body: '' },
  image: { type: 'image/gif', body: PIXEL_GIF },
  html: { type: 'text/html; charset=utf-8', body: '<!doctype html><title></title>' },
  json: { type: 'application/json', body: '{}' },
  // An empty font fails to decode and the page falls back to the next font, as when a font CDN is down.
  font: { type: 'font/woff2', body: '' },
  other: { type: 'text/plain', body: '' },
};

/**
 * What the browser wants, to answer with the right type. Sec-Fetch-Dest says it exactly, but Chromium sends
 * it only to https hosts; over plain http the Accept header tells images, style sheets and documents apart,
 * and the file extension the rest.
 */
function kindOf(req: IncomingMessage, path: string): Kind {
  const dest = String(req.headers['sec-fetch-dest'] ?? '');
  const accept = String(req.headers.accept ?? '');
  if (['script', 'worker', 'sharedworker', 'serviceworker'].includes(dest)) return 'script';
  if (dest === 'style' || dest === 'image' || dest === 'font') return dest;
  if (['document', 'iframe', 'frame'].includes(dest) || accept.startsWith('text/html')) return 'html';
  if (accept.startsWith('image/')) return 'image';
  if (accept.startsWith('text/css')) return 'style';
  if (/\.m?js$/i.test(path)) return 'script';
  if (/\.css$/i.test(path)) return 'style';
  if (/\.(gif|png|jpe?g|webp|avif|svg|ico|bmp)$/i.test(path)) return 'image';
  if (/\.(woff2?|ttf|otf|eot)$/i.test(path)) return 'font';
  if (/\.html?$/i.test(path)) return 'html';
  if (dest === 'empty' || dest === 'manifest' || /\.json$/i.test(path)) return 'json';
  return 'other';
}

/** Headers that let a page on 127.0.0.1 read the answer of a cross-origin fetch, credentials or not. */
function corsHeaders(req: IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return origin ? { 'access-control-allow-origin': origin, 'access-control-allow-credentials': 'true', vary: 'Origin' } : { 'access-control-allow-origin': '*' };
}

/** The host asked for: HTTP/2 carries it as `:authority`, HTTP/1.1 as `Host`. */
function hostHeader(req: IncomingMessage): string | undefined {
  return req.headers.host ?? (req.headers[':authority'] as string | undefined);
}

function isLocalHost(host: string | undefined): boolean {
  return host === undefined || /^127\.0\.0\.1(:\d+)?$/.test(host);
}

export async function startStandIn(options: StandInOptions = {}): Promise<StandIn> {
  const seed = options.seed ?? DEFAULT_SEED;
  const stuckShare = options.stuckShare ?? DEFAULT_STUCK_SHARE;
  const latency = options.latency ?? DEFAULT_LATENCY;
  const thirdParty: ThirdPartyRequest[] = [];
  const local: LocalRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  // Files a CDN lets browsers keep; documents (an ad's frame) and data (an API's answer) are asked for each time.
  const cacheControl = (kind: Kind) => (options.caching === 'max-age' && ['script', 'style', 'image', 'font'].includes(kind) ? 'public, max-age=3600' : 'no-store');
  const answerThirdParty = (req: IncomingMessage, res: ServerResponse, tls: boolean) => {
    const host = hostHeader(req) ?? 'unknown';
    const url = `${tls ? 'https' : 'http'}://${host}${req.url ?? '/'}`;
    const fate = fateOf(url, seed, stuckShare, latency);
    const path = new URL(url).pathname;
    const entry: ThirdPartyRequest = {
      at: performance.now(),
      method: req.method ?? 'GET',
      url,
      host: host.replace(/:\d+$/, ''),
      dest: String(req.headers['sec-fetch-dest'] ?? ''),
      kind: kindOf(req, path),
      stuck: fate.stuck,
      delayMs: fate.delayMs,
    };
    thirdParty.push(entry);
    req.resume(); // read and drop any request body, so the browser is not held up sending it
    if (fate.stuck) return; // never answered; the socket stays open until the browser gives up or we close
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (res.destroyed || res.writableEnded || (res as { stream?: { destroyed: boolean } }).stream?.destroyed) return;
      const headers = { ...corsHeaders(req), 'cache-control': cacheControl(entry.kind), 'timing-allow-origin': '*' };
      if (req.method === 'OPTIONS') {
        // A CORS preflight: allow whatever was asked.
        const asked = req.headers['access-control-request-headers'];
        res.writeHead(204, { ...headers, 'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS', ...(asked ? { 'access-control-allow-headers': asked } : {}) }).end();
      } else {
        const { type, body } = BODIES[entry.kind];
        res.writeHead(200, { ...headers, 'content-type': type, 'content-length': String(Buffer.byteLength(body)) }).end(req.method === 'HEAD' ? undefined : body);
      }
      entry.answeredAt = performance.now();
    }, fate.delayMs);
    timers.add(timer);
  };

  const route = (tls: boolean): RequestListener => (req, res) => {
    if (!isLocalHost(hostHeader(req))) return answerThirdParty(req, res, tls);
    const entry: LocalRequest = { at: performance.now(), path: req.url ?? '/' };
    local.push(entry);
    res.on('finish', () => (entry.finishedAt = performance.now()));
    if (options.local) return options.local(req, res);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no local pages here');
  };

  const plain = createHttpServer(route(false));
  // HTTP/2's compatibility API hands the same listener a request and response of the same shape.
  const secure = options.protocol === 'h2' ? createHttp2Server({ ...selfSignedCertificate(), allowHTTP1: true }, route(true) as never) : createHttpsServer(selfSignedCertificate(), route(true));

  // One port for both: the first byte of a TLS connection is a handshake record (0x16), never a letter of
  // an HTTP method. Peek at it, put it back, and hand the socket to the matching server.
  const front = createNetServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {}); // a browser closing a stuck connection is not our error
    socket.once('readable', () => {
      const first = socket.read(1) as Buffer | null;
      if (!first) return void socket.destroy();
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket);
    });
  });
  await new Promise<void>((ready) => front.listen(0, '127.0.0.1', ready));
  const address = front.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://127.0.0.1:${port}`;

  return {
    port,
    origin,
    url: (path) => `${origin}${path.startsWith('/') ? path : `/${path}`}`,
    // MAP replaces host and port, so http (80) and https (443) both land on this port.
    resolverArgs: [`--host-resolver-rules=MAP * 127.0.0.1:${port}, EXCLUDE 127.0.0.1`, '--ignore-certificate-errors'],
    thirdParty,
    local,
    fateOf: (url) => fateOf(url, seed, stuckShare, latency),
    close: () =>
      new Promise<void>((done) => {
        for (const timer of timers) clearTimeout(timer);
        for (const socket of sockets) socket.destroy();
        plain.close();
        secure.close();
        front.close(() => done());
      }),
  };
}
