#!/usr/bin/env node
/**
 * mastra-browser-toolset's command line: `mcp` serves the tools to MCP clients, `snapshot <url>` prints what an
 * agent reads of a page. Failures are one line on stderr and a non-zero exit code, never a stack trace.
 * The toolset (and Mastra with it) is imported only by the command that needs it: --help answers at once.
 */
import type { BrowserInfo } from '../browser/shared.js';
import type { McpHttpServer } from '../mcp/server.js';
import type { ResultLike } from '../tools/modelText.js';
import { BROWSER_FLAGS, BROWSER_FLAGS_HELP, MCP_FLAGS, packageVersion, parse, storeConfig, toolsetConfig, UsageError } from './options.js';

const NAME = 'mastra-browser-toolset';

const USAGE = `Usage: ${NAME} <command> [options]

A real web browser for AI agents.

Commands:
  mcp              serve the browser tools over MCP (stdio, or streamable HTTP with --port)
  snapshot <url>   open a page and print what an agent reads of it

Run '${NAME} <command> --help' for a command's options; '${NAME} --version' prints the version.
`;

const MCP_HELP = `Usage: ${NAME} mcp [options]

Serves the browser tools over the Model Context Protocol. Each client connection gets its own browser session
(tabs, cookies) in one shared browser, started on the first tool call. Without --port it talks over stdin and
stdout, as MCP clients launch it; it stops when stdin closes, or on SIGINT or SIGTERM, and closes the browser.

Options:
  --port <n>                    serve streamable HTTP at http://127.0.0.1:<n>/mcp instead (0 picks a free port)
  --host <address>              listen on this address instead of 127.0.0.1 (this exposes a browser: only on purpose)
  --session-store <dir|url>     keep each MCP session's browser (cookies, storage, tabs) in this directory, Postgres
                                database (postgres:) or LibSQL database (file:, libsql:, https:), so that any
                                replica behind a load balancer, or this server after a restart, goes on with it;
                                encrypted with the key in MASTRA_BROWSER_STORE_KEY (without one, logins are not kept)
  --allow-plaintext             with --session-store and no key: keep cookies and storage unencrypted

Secrets the agent types by name without seeing them (browser_type { ref, secret }): the "secrets" key of the
--config file, or MASTRA_BROWSER_SECRETS holding it as JSON; a value may be {"env": "NAME"} to read it from the
environment, e.g. MASTRA_BROWSER_SECRETS='{"bank":{"value":{"env":"BANK_PASSWORD"},"origins":["https://bank.example"]}}'.

${BROWSER_FLAGS_HELP}

Example (Claude Code):
  claude mcp add browser -- npx -y ${NAME} mcp
`;

const SNAPSHOT_HELP = `Usage: ${NAME} snapshot <url> [options]

Opens <url> and prints what an agent reads of it: the text of browser_navigate's result, with a ref on each
element it can act on. Which browser was used goes to stderr. Exit code 1 when the page cannot be opened,
2 for a mistake in the command line (an option, or a URL that is not one).

${BROWSER_FLAGS_HELP}
`;

function log(line: string): void {
  process.stderr.write(`${line}\n`);
}

function describeBrowser(info: BrowserInfo): string {
  const where = info.executablePath ?? info.endpoint ?? '';
  return `browser: ${info.source} ${where}${info.version ? ` (version ${info.version})` : ''}`;
}

/** One line, whatever the message holds. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

async function snapshot(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, BROWSER_FLAGS);
  if (values.help) {
    process.stdout.write(SNAPSHOT_HELP);
    return 0;
  }
  if (positionals.length !== 1) throw new UsageError(`snapshot takes one URL (got ${positionals.length}), e.g. ${NAME} snapshot https://example.com`);
  const config = toolsetConfig(values);
  const { BrowserToolset } = await import('../toolset.js');
  const toolset = new BrowserToolset(config);
  try {
    const navigate = toolset.tools.browser_navigate;
    const result = (await navigate.execute!({ url: positionals[0]! }, {} as never)) as ResultLike;
    if (toolset.browserInfo) log(describeBrowser(toolset.browserInfo));
    if (!result.ok) {
      const { code, message, hint } = result.error!;
      log(`${NAME}: ${code}: ${oneLine(message)} Hint: ${oneLine(hint)}`);
      return code === 'invalid_input' ? 2 : 1;
    }
    const text = (navigate.toModelOutput!(result as never) as { value: string }).value;
    process.stdout.write(`${text}\n`);
    return 0;
  } finally {
    await toolset.close();
  }
}

async function mcp(args: string[]): Promise<number> {
  const { values, positionals } = parse(args, MCP_FLAGS);
  if (values.help) {
    process.stdout.write(MCP_HELP);
    return 0;
  }
  if (positionals.length) throw new UsageError(`mcp takes no arguments besides options (got "${positionals[0]}")`);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port <= 65_535)) throw new UsageError(`--port takes a port number, not "${values.port}"`);
  if (values.host !== undefined && port === undefined) throw new UsageError('--host needs --port (stdio has no address)');
  // Over stdio each client starts a server of its own: there is no session another process could go on with.
  if (values['session-store'] !== undefined && port === undefined) throw new UsageError('--session-store needs --port (it keeps streamable HTTP sessions)');

  const config = { ...toolsetConfig(values), ...storeConfig(values) };
  const [{ BrowserToolset }, { serveHttp, serveStdio }] = await Promise.all([import('../toolset.js'), import('../mcp/server.js')]);
  const toolset = new BrowserToolset(config);
  const version = packageVersion();
  const toolCount = Object.keys(toolset.tools).length;
  let announced = false;
  const onCall = () => {
    if (announced || !toolset.browserInfo) return;
    announced = true;
    log(describeBrowser(toolset.browserInfo));
  };

  let http: McpHttpServer | undefined;
  let stopping: Promise<void> | undefined;
  const stop = (why: string) =>
    (stopping ??= (async () => {
      log(`${NAME}: stopping (${why}); closing the browser`);
      await http?.close();
      await toolset.close();
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stop(signal).finally(() => process.exit(0)));
  }

  if (port === undefined) {
    log(`${NAME} ${version}: serving ${toolCount} browser tools over MCP on stdio`);
    await serveStdio(toolset, { version, onCall });
    await stop('stdin closed');
    return 0;
  }
  http = await serveHttp(toolset, { version, onCall, port, host: values.host });
  log(`${NAME} ${version}: serving ${toolCount} browser tools over MCP at ${http.url}`);
  if (values.host !== undefined && !['127.0.0.1', 'localhost', '::1'].includes(values.host)) {
    log(`${NAME}: warning: listening on ${values.host}; anyone who reaches it can drive this browser`);
  }
  await new Promise<never>(() => {}); // until SIGINT or SIGTERM
  return 0;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    process.stderr.write(USAGE);
    return 2;
  }
  if (command === '--help' || command === '-h' || command === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  if (command === '--version' || command === '-v') {
    process.stdout.write(`${packageVersion()}\n`);
    return 0;
  }
  if (command === 'mcp') return mcp(rest);
  if (command === 'snapshot') return snapshot(rest);
  throw new UsageError(`unknown command "${command}"`);
}

function fail(error: unknown): never {
  if (error instanceof UsageError) {
    log(`${NAME}: ${error.message}. See '${NAME} --help'.`);
    process.exit(2);
  }
  // A config the toolset refuses (e.g. a negative timeout in --config) is a usage mistake too.
  const code = (error as { name?: string; code?: string }).name === 'BrowserToolError' && (error as { code?: string }).code === 'invalid_input' ? 2 : 1;
  log(`${NAME}: ${oneLine(error instanceof Error ? error.message : String(error))}`);
  process.exit(code);
}

process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
main(process.argv.slice(2)).then((code) => process.exit(code), fail);
