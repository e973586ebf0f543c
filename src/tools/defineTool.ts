/**
 * The one helper every tool is made with: a Mastra tool whose result is either
 * `{ ok: true, ...data }` or `{ ok: false, error }`, and which never throws at the agent.
 */
import { createTool } from '@mastra/core/tools';
import type { Page } from 'playwright-core';
import { z } from 'zod';
import type { ResolvedConfig } from '../config.js';
import { BrowserToolError, ERROR_CODES, toBrowserToolError } from '../errors.js';
import type { RefManager } from '../refs.js';
import type { BrowserSession } from '../session.js';

export interface ToolContext {
  session: BrowserSession;
  refs: RefManager;
  config: ResolvedConfig;
  /** Runs browser work one call at a time: the browser is shared state. */
  exclusive: <T>(work: () => Promise<T>) => Promise<T>;
}

/** What a handler gets: the active tab, and a list to add notices the model should read. */
export interface CallContext extends ToolContext {
  page: Page;
  notices: string[];
}

export const errorSchema = z.object({
  code: z.enum(ERROR_CODES).describe('Machine-readable error code.'),
  message: z.string().describe('What went wrong.'),
  hint: z.string().describe('What to do next.'),
  retryable: z.boolean().describe('True when the same call may succeed after the hint is followed or after a wait.'),
  snapshot: z.string().optional().describe('A fresh page snapshot, when the refs you hold are no longer valid.'),
});

const noticesSchema = z.array(z.string()).optional().describe('Things you should know about this call, such as a browser restart.');

export type ToolResult<T> = ({ ok: true; notices?: string[] } & T) | { ok: false; error: z.infer<typeof errorSchema>; notices?: string[] };

export interface BrowserToolDefinition<I extends z.ZodTypeAny, O extends z.ZodRawShape> {
  id: string;
  description: string;
  input: I;
  /** Shape of a successful result, besides `ok` and `notices`. */
  output: O;
  handle: (input: z.infer<I>, call: CallContext) => Promise<z.infer<z.ZodObject<O>>>;
  /** Run even while a dialog blocks the page (only browser_dialog and browser_tabs need this). */
  runsWhileDialogOpen?: boolean;
  /** Shapes what the model receives, e.g. an image instead of JSON. */
  toModelOutput?: (output: ToolResult<z.infer<z.ZodObject<O>>>) => unknown;
}

export function defineBrowserTool<I extends z.ZodTypeAny, O extends z.ZodRawShape>(definition: BrowserToolDefinition<I, O>) {
  const success = z.object({ ok: z.literal(true), notices: noticesSchema, ...definition.output });
  const failure = z.object({ ok: z.literal(false), error: errorSchema, notices: noticesSchema });
  const outputSchema = z.union([success, failure]);

  return (context: ToolContext) => {
    const tool = createTool({
      id: definition.id,
      description: definition.description,
      inputSchema: definition.input,
      outputSchema,
      ...(definition.toModelOutput ? { toModelOutput: definition.toModelOutput as (output: unknown) => unknown } : {}),
      execute: async (input: z.infer<I>) => runTool(definition, context, input) as Promise<z.infer<typeof outputSchema>>,
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

async function runTool<I extends z.ZodTypeAny, O extends z.ZodRawShape>(
  definition: BrowserToolDefinition<I, O>,
  context: ToolContext,
  input: z.infer<I>,
): Promise<ToolResult<z.infer<z.ZodObject<O>>>> {
  const notices: string[] = [];
  try {
    rejectHugeStrings(input);
    return await context.exclusive(async () => {
      const active = await context.session.activePage();
      notices.push(...active.notices);
      const pending = context.session.eventsOf(active.page).pendingDialog;
      if (pending && !definition.runsWhileDialogOpen) {
        throw new BrowserToolError('dialog_open', `A ${pending.type} dialog is open: ${JSON.stringify(pending.message)}. The page is frozen until it is answered.`);
      }
      const data = await definition.handle(input, { ...context, page: active.page, notices });
      return { ok: true as const, ...data, ...(notices.length ? { notices } : {}) };
    });
  } catch (error) {
    const toolError = toBrowserToolError(error, definition.id.replace(/^browser_/, ''));
    return { ok: false as const, error: toolError.toJSON(), ...(notices.length ? { notices } : {}) };
  }
}
