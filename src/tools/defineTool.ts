/**
 * The one helper every tool is made with: a Mastra tool whose result is either
 * `{ ok: true, ...data }` or `{ ok: false, error }`, which never throws at the agent, runs in the session of
 * the conversation that called it, and ends by its deadline whatever the page does.
 */
import { createTool } from '@mastra/core/tools';
import { z } from 'zod';
import type { ResolvedConfig } from '../config.js';
import { BrowserToolError, ERROR_CODES, toBrowserToolError } from '../errors.js';
import { announcement } from '../files/downloads.js';
import type { Deadline } from '../deadline.js';
import type { SessionRegistry } from '../session/registry.js';
import type { BrowserSession } from '../session/session.js';
import type { Tab } from '../session/tab.js';
import { elementsSchema, resultElements, sessionRefs, type ResultElement } from './elements.js';
import { toModelText, type ResultLike } from './modelText.js';
import { BOUNDARY_NOTE, boundaryOf } from './boundary.js';
import { traceToolCall } from './toolSpan.js';

export interface ToolContext {
  registry: SessionRegistry;
  config: ResolvedConfig;
}

/** What a handler gets: its session and active tab, the call's deadline, and a list for notices the model should read. */
export interface CallContext {
  session: BrowserSession;
  config: ResolvedConfig;
  /** The tab the call acts on, the session's active one: its page (`tab.page`), refs (`tab.refs`), dialogs and downloads. */
  tab: Tab;
  notices: string[];
  deadline: Deadline;
  /** What Mastra handed the tool call (its suspend and resume, an MCP client's elicitation), for the tools that ask a person. */
  host?: unknown;
}

/** What the handler of a tool that needs no page gets (`needsPage: false`): no tab, unless it asks for one. */
export interface PagelessCallContext extends Omit<CallContext, 'tab'> {
  /** The active tab, as a page tool's call gets it (opening the browser, context and a tab if needed): for an input that needs the page after all. */
  openTab(): Promise<Tab>;
}

export const errorSchema = z.object({
  code: z.enum(ERROR_CODES).describe('Machine-readable error code.'),
  message: z.string().describe('What went wrong.'),
  hint: z.string().describe('What to do next.'),
  retryable: z.boolean().describe('True when the same call may succeed after the hint is followed or after a wait.'),
  snapshot: z.string().optional().describe('A fresh page snapshot, when the refs you hold are no longer valid.'),
});

const noticesSchema = z.array(z.string()).optional().describe('Things you should know about this call, such as a browser restart.');
const boundarySchema = z.string().optional().describe("The session's content boundary: the text the model reads puts what came from the page between its markers (boundary.ts).");

export type ToolResult<T> = ({ ok: true; notices?: string[]; elements?: ResultElement[]; boundary?: string } & T) | { ok: false; error: z.infer<typeof errorSchema>; notices?: string[]; boundary?: string };

interface ToolDefinitionBase<I extends z.ZodTypeAny, O extends z.ZodRawShape> {
  id: string;
  description: string;
  input: I;
  /** Shape of a successful result, besides `ok` and `notices`. */
  output: O;
  /** Run even while a dialog blocks the page (only browser_dialog and browser_tabs need this). */
  runsWhileDialogOpen?: boolean;
  /**
   * How long the call may take, in ms: `action` (default) is the element timeout, `page` the navigation
   * timeout (loading, reading or picturing a whole page). A click that starts a navigation gets more on the way.
   */
  budget?: 'action' | 'page' | ((input: z.infer<I>, config: ResolvedConfig) => number);
  /** Checks of the arguments alone, made before any browser is launched or session opened (a malformed URL). */
  validate?: (input: z.infer<I>, config: ResolvedConfig) => void;
  /** The call mostly waits (browser_wait): it does not take one of the `maxConcurrentCalls` slots. */
  waits?: boolean;
  /**
   * The call deals with a tab that does not respond itself (navigate and history open their page in a new tab;
   * tabs lists it as not responding): the check a call makes after one that ran out of time, which replaces such
   * a tab with an empty one, would lose where it was going.
   */
  handlesHungTab?: boolean;
  /** Shapes what the model receives, e.g. an image; by default the result as plain text (modelText.ts). */
  toModelOutput?: (output: ToolResult<z.infer<z.ZodObject<O>>>) => unknown;
  /** Its description says how page content is marked off in results, while the boundary is on (boundary.ts). */
  describesBoundary?: boolean;
  /** What the call suspends with and is resumed with, for a tool that pauses for a person (Mastra's suspend and resume). */
  suspendSchema?: z.ZodTypeAny;
  resumeSchema?: z.ZodTypeAny;
}

/** A tool that acts on the page: its handler gets the active tab, opened if none is. */
export interface PageToolDefinition<I extends z.ZodTypeAny, O extends z.ZodRawShape> extends ToolDefinitionBase<I, O> {
  needsPage?: true;
  handle: (input: z.infer<I>, call: CallContext) => Promise<z.infer<z.ZodObject<O>>>;
}

/** A tool that works without a page (a list of downloads, a saved file): its call opens no browser, context or tab. */
export interface PagelessToolDefinition<I extends z.ZodTypeAny, O extends z.ZodRawShape> extends ToolDefinitionBase<I, O> {
  needsPage: false;
  handle: (input: z.infer<I>, call: PagelessCallContext) => Promise<z.infer<z.ZodObject<O>>>;
}

export type BrowserToolDefinition<I extends z.ZodTypeAny, O extends z.ZodRawShape> = PageToolDefinition<I, O> | PagelessToolDefinition<I, O>;

/** A RequestContext entry that names the session outright, e.g. one per workflow run: `requestContext.set('browserSession', runId)`. */
export const SESSION_CONTEXT_KEY = 'browserSession';

/**
 * The session a call belongs to: one named in the RequestContext, else Mastra's thread, else its resource,
 * else the MCP connection; a call with none of them (a workflow, a script, a test) uses the default session.
 */
export function sessionKey(context: unknown, config: ResolvedConfig): string {
  if (config.scope === 'shared') return 'default';
  const c = (context ?? {}) as {
    requestContext?: { get?: (key: string) => unknown };
    agent?: { threadId?: string; resourceId?: string };
    mcp?: { extra?: { sessionId?: string } };
  };
  const named = c.requestContext?.get?.(SESSION_CONTEXT_KEY);
  if (typeof named === 'string' && named) return `named:${named}`;
  if (c.agent?.threadId) return `thread:${c.agent.threadId}`;
  if (c.agent?.resourceId) return `resource:${c.agent.resourceId}`;
  if (c.mcp?.extra?.sessionId) return `mcp:${c.mcp.extra.sessionId}`;
  return 'default';
}

export function defineBrowserTool<I extends z.ZodTypeAny, O extends z.ZodRawShape>(definition: BrowserToolDefinition<I, O>) {
  // Results that can show refs list them as data too (elements.ts); the others are not declared with the list.
  const showsRefs = 'snapshot' in definition.output || 'changes' in definition.output;
  const success = z.object({ ok: z.literal(true), notices: noticesSchema, boundary: boundarySchema, ...(showsRefs ? { elements: elementsSchema } : {}), ...definition.output });
  const failure = z.object({ ok: z.literal(false), error: errorSchema, notices: noticesSchema, boundary: boundarySchema });
  const outputSchema = z.union([success, failure]);

  const factory = (context: ToolContext) => {
    const tool = createTool({
      id: definition.id,
      description: definition.describesBoundary && context.config.contentBoundary ? definition.description + BOUNDARY_NOTE : definition.description,
      inputSchema: definition.input,
      outputSchema,
      ...(definition.suspendSchema ? { suspendSchema: definition.suspendSchema, resumeSchema: definition.resumeSchema } : {}),
      // In an Agent loop Mastra validates the arguments itself and hands its error object here, not to execute.
      toModelOutput: ((output: unknown) => {
        const result = (isMastraValidationError(output) ? fromValidationError(output) : output) as ToolResult<z.infer<z.ZodObject<O>>>;
        return definition.toModelOutput ? definition.toModelOutput(result) : toModelText(result as ResultLike);
      }) as (output: unknown) => unknown,
      execute: async (input: z.infer<I>, mastraContext: unknown) => {
        const key = sessionKey(mastraContext, context.config);
        return traceToolCall(definition.id, mastraContext, () => runTool(definition, context, input, key, false, mastraContext), () => context.registry.peek(key)?.tabs.activeTab?.page.url()) as Promise<z.infer<typeof outputSchema>>;
      },
    });
    // Mastra checks arguments against the schema before our code runs and answers with its own error shape;
    // give the model the same `invalid_input` result as every other bad argument.
    const validatedExecute = tool.execute!;
    tool.execute = (async (input: unknown, context: unknown) => {
      const result = await (validatedExecute as (i: unknown, c: unknown) => Promise<unknown>)(input, context);
      return isMastraValidationError(result) ? fromValidationError(result) : result;
    }) as typeof tool.execute;
    return tool;
  };
  /**
   * The same call made for a person (Studio's address bar) in the session of `key`: queued, timed and recovered
   * as the agent's calls are, its notices left for the agent's next call.
   */
  const runForPerson = (context: ToolContext, input: z.infer<I>, key: string) => runTool(definition, context, input, key, true);
  return Object.assign(factory, { runForPerson });
}

interface MastraValidationError {
  error: true;
  message: string;
}

function isMastraValidationError(result: unknown): result is MastraValidationError {
  return typeof result === 'object' && result !== null && (result as { error?: unknown }).error === true && typeof (result as { message?: unknown }).message === 'string';
}

function fromValidationError(result: MastraValidationError): ToolResult<never> {
  const input = /input validation failed/i.test(result.message);
  // Mastra appends the arguments it received; the model has them already, and they may be huge.
  const message = result.message.replace(/\n\nProvided arguments:[\s\S]*$/, '').trim();
  return {
    ok: false,
    error: input
      ? { code: 'invalid_input', message, hint: 'Fix the arguments as described and call the tool again.', retryable: false }
      : { code: 'browser_error', message: `The tool produced a malformed result: ${message}`, hint: 'Retry once; if it repeats, take another way.', retryable: true },
  };
}

/** Length limits live here rather than in every schema, where the model would pay for them each turn. */
const MAX_STRING = 100_000;
function rejectHugeStrings(value: unknown, path = 'input'): void {
  if (typeof value === 'string' && value.length > MAX_STRING) {
    throw new BrowserToolError('invalid_input', `${path} is ${value.length.toLocaleString('en-US')} characters long; the limit is ${MAX_STRING.toLocaleString('en-US')}.`);
  }
  if (Array.isArray(value)) value.forEach((item, i) => rejectHugeStrings(item, `${path}[${i}]`));
  else if (value && typeof value === 'object') for (const [key, item] of Object.entries(value)) rejectHugeStrings(item, key);
}

function blockedNotice(urls: string[]): string {
  const hosts = [...new Set(urls.map((url) => url.replace(/^[a-z]+:\/\/([^/]+).*$/i, '$1')))];
  return `The domain allowlist blocked ${urls.length} request${urls.length === 1 ? '' : 's'} of this page (to ${hosts.slice(0, 3).join(', ')}${hosts.length > 3 ? ', …' : ''}); parts of the page that needed them may be missing.`;
}

/** A call as a download's cause names it: the tool and the arguments that say what it acted on (never typed text). */
function callLabel(id: string, input: unknown): string {
  const args = Object.fromEntries(Object.entries((input ?? {}) as Record<string, unknown>).filter(([key]) => ['url', 'ref', 'key', 'action', 'index', 'file'].includes(key)));
  return `${id}${Object.keys(args).length ? ` ${JSON.stringify(args)}` : ''}`;
}

function budgetOf<I extends z.ZodTypeAny>(definition: BrowserToolDefinition<I, z.ZodRawShape>, input: z.infer<I>, config: ResolvedConfig): number {
  const { budget } = definition;
  if (typeof budget === 'function') return budget(input, config);
  return budget === 'page' ? config.navigationTimeout : config.timeout;
}

async function runTool<I extends z.ZodTypeAny, O extends z.ZodRawShape>(
  definition: BrowserToolDefinition<I, O>,
  context: ToolContext,
  input: z.infer<I>,
  key: string,
  forPerson = false,
  host?: unknown,
): Promise<ToolResult<z.infer<z.ZodObject<O>>>> {
  const notices: string[] = [];
  // What came from the page is marked off in the text the model reads (boundary.ts), errors' snapshots too.
  let boundary: { boundary: string } | undefined;
  try {
    rejectHugeStrings(input);
    definition.validate?.(input, context.config);
    const budget = budgetOf(definition, input, context.config);
    const { session, notices: sessionNotices } = await context.registry.get(key, budget);
    if (context.config.contentBoundary) boundary = { boundary: boundaryOf(session) };
    // A person's call leaves what the session must tell (it was closed and started again) to the agent's next call.
    if (forPerson) session.tellNextCall(sessionNotices);
    else notices.push(...sessionNotices);
    const what = definition.id.replace(/^browser_/, '');
    return await session.run(budget, what, async (deadline, openTab) => {
      // The active tab, with what the model must know of it, once per call.
      const tab = async () => {
        const active = await openTab();
        notices.push(...active.notices);
        const pending = active.tab.pendingDialog;
        if (pending && !definition.runsWhileDialogOpen) {
          throw new BrowserToolError('dialog_open', `A ${pending.type} dialog is open: ${JSON.stringify(pending.message)}. The page is frozen until it is answered.`);
        }
        return active.tab;
      };
      const base = { session, config: context.config, notices, deadline, host };
      let opened: Promise<Tab> | undefined;
      const label = callLabel(definition.id, input);
      session.downloads.callStarted(label, { forPerson });
      const arrived = forPerson ? [] : session.downloads.takeAnnouncements();
      if (arrived.length) notices.push(announcement(arrived));
      const handling = definition.needsPage === false ? definition.handle(input, { ...base, openTab: () => (opened ??= tab()) }) : tab().then((active) => definition.handle(input, { ...base, tab: active }));
      const data = await handling.finally(() => session.downloads.callEnded(label));
      const blocked = session.tabs.all().flatMap((other) => other.loading.takeRefused());
      if (blocked.length) notices.push(blockedNotice(blocked));
      // The refs the result shows, as data for programs (elements.ts); the model reads them in the text.
      const elements = resultElements(data, sessionRefs([session.tabs.activeTab, ...session.tabs.all()]));
      // Scrubbed as a whole, elements included: a secret a page echoes back is named, never shown.
      return scrubbed(context, { ok: true as const, ...data, ...elements, ...(notices.length ? { notices } : {}), ...boundary });
    }, { slot: !definition.waits, checkTab: !definition.handlesHungTab, forPerson });
  } catch (error) {
    const toolError = toBrowserToolError(error, definition.id.replace(/^browser_/, ''));
    return scrubbed(context, { ok: false as const, error: toolError.toJSON(), ...(notices.length ? { notices } : {}), ...boundary });
  }
}

/** A result with every secret value the vault handed out replaced by its name: a page may echo one back. */
function scrubbed<T>(context: ToolContext, result: T): T {
  return context.config.secrets ? context.config.secrets.scrub(result) : result;
}
