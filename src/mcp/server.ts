/**
 * The toolset's tools over the Model Context Protocol, with the official SDK's low-level Server: the model reads
 * the same text as in a Mastra agent (each tool's toModelOutput), failures are MCP tool errors (isError) with our
 * code and hint, screenshots are image content, and every client connection gets its own browser session.
 *
 * Why not @mastra/mcp's MCPServer: it sends the JSON of the result instead of toModelOutput's text, marks every
 * returned result `isError: false`, and sends screenshots as base64 text.
 */
import { randomUUID } from 'node:crypto';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, type CallToolResult, type ElicitRequestFormParams, type ElicitResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { sessionKey } from '../tools/defineTool.js';
import type { BrowserToolId, BrowserToolset } from '../toolset.js';
import { annotationsOf } from './annotations.js';
import { BOUNDARY_NOTE } from '../tools/boundary.js';

export const SERVER_NAME = 'mastra-browser-toolset';

const INSTRUCTIONS =
  'A real web browser. Start with browser_navigate; it returns a snapshot of the page in which every element you can act on has a ref (e12). ' +
  'Act by ref with the other tools, and take a new browser_snapshot when a result says the page changed. When a call fails, follow its hint.';

/** What a tool's toModelOutput returns (see tools/modelText.ts and tools/screenshot.ts). */
type ModelOutput =
  | { type: 'text' | 'error-text'; value: string }
  | { type: 'content'; value: Array<{ type: 'text'; text: string } | { type: 'image-data'; data: string; mediaType: string }> };

interface McpTool {
  description?: string;
  inputSchema?: unknown;
  execute?: (input: unknown, context: unknown) => Promise<unknown>;
  toModelOutput?: (output: unknown) => unknown;
}

export function toCallToolResult(output: ModelOutput): CallToolResult {
  if (output.type === 'content') {
    return {
      content: output.value.map((part) => (part.type === 'text' ? part : { type: 'image' as const, data: part.data, mimeType: part.mediaType })),
    };
  }
  return { content: [{ type: 'text', text: output.value }], ...(output.type === 'error-text' ? { isError: true } : {}) };
}

/** The tool-call context that makes `sessionKey()` pick this connection's browser session. */
function connectionContext(connectionId: string, elicitation?: ElicitationContext) {
  return { mcp: { extra: { sessionId: connectionId }, ...(elicitation ? { elicitation } : {}) } };
}

/** How a tool asks the client's user something (browser_handoff), in the shape Mastra's MCP context gives it. */
interface ElicitationContext {
  sendRequest: (request: ElicitRequestFormParams, options?: { signal?: AbortSignal }) => Promise<ElicitResult>;
}

/** A day: the tool ends its own wait (its time limit), not the SDK's 60-second default for a request. */
const ELICIT_TIMEOUT_MS = 24 * 60 * 60_000;

/** Asking through the client, for a client that said it can be asked (the `elicitation` capability). */
function elicitationFor(server: Server, requestId: string | number): ElicitationContext | undefined {
  if (!server.getClientCapabilities()?.elicitation) return undefined;
  return { sendRequest: (request, options) => server.elicitInput(request, { relatedRequestId: requestId, timeout: ELICIT_TIMEOUT_MS, ...(options?.signal ? { signal: options.signal } : {}) }) };
}

/** Each toolset's tool list, made once: a replica serving sessions it did not begin makes a server per request. */
const toolLists = new WeakMap<BrowserToolset, Tool[]>();

function listTools(toolset: BrowserToolset): Tool[] {
  const known = toolLists.get(toolset);
  if (known) return known;
  const tools = Object.entries(toolset.tools).map(([id, tool]) => ({
    name: id,
    description: (tool as McpTool).description,
    inputSchema: toJsonSchemaCompat((tool as McpTool).inputSchema as Parameters<typeof toJsonSchemaCompat>[0]) as Tool['inputSchema'],
    annotations: annotationsOf(id as BrowserToolId),
  }));
  toolLists.set(toolset, tools);
  return tools;
}

/**
 * An MCP server for one client connection. Calls without a transport session id (stdio) use `connectionId`;
 * a streamable-HTTP session uses its own id. Each id is its own browser session in the toolset.
 */
export function createMcpServer(toolset: BrowserToolset, options: { version: string; connectionId?: string; onCall?: () => void }): Server {
  const server = new Server({ name: SERVER_NAME, version: options.version }, { capabilities: { tools: {} }, instructions: toolset.config.contentBoundary ? INSTRUCTIONS + BOUNDARY_NOTE : INSTRUCTIONS });
  const tools = listTools(toolset);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = (toolset.tools as Record<string, McpTool>)[request.params.name];
    if (!tool?.execute || !tool.toModelOutput) {
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${request.params.name}". Tools: ${Object.keys(toolset.tools).join(', ')}.`);
    }
    const connectionId = extra.sessionId ?? options.connectionId ?? 'stdio';
    try {
      // The tool validates its arguments and never throws: a bad call comes back as an invalid_input result.
      const result = await tool.execute(request.params.arguments ?? {}, connectionContext(connectionId, elicitationFor(server, extra.requestId)));
      return toCallToolResult(tool.toModelOutput(result) as ModelOutput);
    } catch (error) {
      return { content: [{ type: 'text', text: `error browser_error (retryable): ${(error as Error).message}` }], isError: true };
    } finally {
      options.onCall?.();
    }
  });
  return server;
}

/**
 * Closes the browser session of one MCP connection (a no-op with `scope: 'shared'`, where all connections share one).
 * With a session store it is saved, to be resumed by the connection's next request, unless `forget`: the client
 * ended its MCP session, so nothing of it is kept.
 */
async function closeConnection(toolset: BrowserToolset, connectionId: string, { forget = false } = {}): Promise<void> {
  const key = sessionKey(connectionContext(connectionId), toolset.config);
  if (key !== 'default') await toolset.sessions.closeSession(key, { forget });
}

export interface ServeOptions {
  version: string;
  /** Called after every tool call, e.g. to log which browser was launched. */
  onCall?: () => void;
}

/** Serves one client over stdin/stdout. Resolves when the client disconnects (stdin ends or the transport closes). */
export async function serveStdio(toolset: BrowserToolset, options: ServeOptions): Promise<void> {
  const server = createMcpServer(toolset, { ...options, connectionId: 'stdio' });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
    // The SDK's stdio transport does not notice the end of its input: a client that exits closes our stdin.
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
  await server.connect(transport);
  await closed;
  await server.close().catch(() => {});
  await closeConnection(toolset, 'stdio');
}

export interface HttpServeOptions extends ServeOptions {
  port: number;
  /** Default 127.0.0.1. Anything else exposes a browser to the network: only on purpose. */
  host?: string;
}

export interface McpHttpServer {
  url: string;
  /** Open MCP sessions (one browser session each). */
  sessions: () => number;
  close: () => Promise<void>;
}

function jsonError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/**
 * Serves the streamable-HTTP transport at `/mcp`. Each MCP session (from its initialize request to its DELETE
 * or the server's close) gets a server, a transport and a browser session of its own.
 */
export async function serveHttp(toolset: BrowserToolset, options: HttpServeOptions): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const transports = new Map<string, StreamableHTTPServerTransport>();
  let allowedHosts: string[] | undefined;

  const http: HttpServer = createHttpServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      // One bad request must not stop the server for every other client.
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`MCP request failed: ${(error as Error).message}\n`);
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found. The MCP endpoint is /mcp.\n');
      return;
    }
    const id = req.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport && typeof id === 'string') {
      if (toolset.config.sessionStore) return serveBegunElsewhere(id, req, res);
      jsonError(res, 404, -32001, 'Unknown or closed MCP session; initialize a new one.');
      return;
    }
    if (!transport) {
      // A request without a session id may only be an initialize request; the transport answers anything else with an error.
      const fresh = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (sessionId) => void transports.set(sessionId, fresh),
        // Only the client's DELETE: its conversation is over, and what the store keeps of it goes too.
        onsessionclosed: (sessionId) => closeConnection(toolset, sessionId, { forget: true }),
        ...rebindingGuard(),
      });
      fresh.onclose = () => {
        const sessionId = fresh.sessionId;
        if (sessionId && transports.delete(sessionId)) closeConnection(toolset, sessionId).catch(() => {});
      };
      await createMcpServer(toolset, options).connect(fresh);
      transport = fresh;
    }
    await transport.handleRequest(req, res);
  }

  // A browser on loopback must not be reachable from web pages through DNS rebinding.
  const rebindingGuard = () => (allowedHosts ? { enableDnsRebindingProtection: true, allowedHosts } : {});

  /**
   * A request of an MCP session this process does not hold: another replica behind the same load balancer began
   * it, or this process before a restart. With a session store its browser session is resumed from the store by
   * the session id (the registry takes the conversation's lease, so one replica drives it at a time), and the
   * request is served by a transport made for it alone: what the session was is in the store, not in the
   * transport. Such a replica offers no stream of server messages (GET), which the tools never send.
   */
  async function serveBegunElsewhere(id: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (allowedHosts && !allowedHosts.includes(req.headers.host ?? '')) {
      jsonError(res, 403, -32000, `Invalid Host header: ${req.headers.host ?? '(none)'}`);
      return;
    }
    if (req.method === 'GET') {
      res.writeHead(405, { allow: 'POST, DELETE' }).end();
      return;
    }
    if (req.method === 'DELETE') {
      await closeConnection(toolset, id, { forget: true });
      res.writeHead(200).end();
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, ...rebindingGuard() });
    const server = createMcpServer(toolset, { ...options, connectionId: id });
    res.once('close', () => {
      void transport.close().catch(() => {});
      void server.close().catch(() => {});
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  }

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, host, () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  if (LOOPBACK.has(host)) allowedHosts = [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
  const shownHost = host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}/mcp`,
    sessions: () => transports.size,
    close: async () => {
      await Promise.all([...transports.values()].map((t) => t.close().catch(() => {})));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
