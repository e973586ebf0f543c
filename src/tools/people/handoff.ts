/**
 * browser_handoff: the agent hands the page to a person when a wall needs one (a CAPTCHA, a code sent to a phone,
 * a payment to confirm). In a Mastra agent or workflow the call suspends (Mastra's suspend and resume, with a
 * payload shaped as `ask_user`'s so hosts that render one render this), the person acts in the live view (or the
 * remote browser, or the window of `headless: false`), and the resumed call says what changed. Over MCP it asks
 * through the client's elicitation when the client offers it. Elsewhere it says at once that a person must act.
 * Nothing waits past the time limit: a person who never answers ends the call as `expired`.
 */
import { z } from 'zod';
import { BrowserToolError } from '../../errors.js';
import type { BrowserSession } from '../../session/session.js';
import { wallLine, type Capture } from '../../snapshot/index.js';
import { defineBrowserTool, type CallContext } from '../defineTool.js';

const DEFAULT_SECONDS = 600;
const MAX_SECONDS = 3_600;

/** What the call suspends with: `ask_user`'s question, options and selection mode, then what a host may show besides. */
const suspendSchema = z.object({
  question: z.string(),
  options: z.array(z.object({ label: z.string(), description: z.string().optional() })).optional(),
  selectionMode: z.enum(['single_select', 'multi_select']).optional(),
  reason: z.string(),
  url: z.string(),
  title: z.string(),
  wall: z.string().optional(),
  expiresAt: z.string().describe('When the handoff ends unanswered (ISO time): a later answer gets `expired`.'),
});
type SuspendPayload = z.infer<typeof suspendSchema>;

/** The person's answer, as `ask_user` is answered: an option's label or free text. */
const resumeSchema = z.union([z.string(), z.array(z.string())]);

/** What Mastra or an MCP server hands the call, as far as a handoff uses it. */
interface Host {
  suspend?: (payload: SuspendPayload) => Promise<unknown>;
  resumeData?: unknown;
  suspendPayload?: Partial<SuspendPayload>;
  elicit?: (request: { message: string; requestedSchema: Record<string, unknown> }, options: { signal: AbortSignal }) => Promise<{ action: string; content?: Record<string, unknown> }>;
}

function hostOf(raw: unknown): Host {
  const c = (raw ?? {}) as Record<string, any>;
  const from = c.agent ?? c.workflow ?? {};
  const sendRequest = c.mcp?.elicitation?.sendRequest;
  return {
    suspend: c.suspend ?? from.suspend,
    resumeData: c.resumeData ?? from.resumeData,
    suspendPayload: c.suspendPayload ?? from.suspendPayload,
    ...(typeof sendRequest === 'function' ? { elicit: sendRequest } : {}),
  };
}

/** The handoff a session's page is in, kept in this process: the suspend payload carries the same after a restart. */
const pending = new WeakMap<BrowserSession, { expiresAt: number; wall?: string }>();

/** The wall the page shows, as its snapshot's header says it; undefined when there is none. */
function wallOf(capture: Capture): string | undefined {
  const line = wallLine(capture)?.lines[0];
  // What the wall is, without the next step the snapshot gives the model.
  return line?.startsWith('! ') ? line.slice(2).split(': ')[0] : undefined;
}

const DECLINED = /^\s*(cannot|can'?t|could ?n[o']t|no\b|not now|cancel|decline|skip|unable|give up)/i;

async function report(call: CallContext, outcome: 'done' | 'declined' | 'expired', wallBefore: string | undefined, answer?: string) {
  const { capture, formatted } = await call.tab.refs.snapshot();
  const wall = wallOf(capture);
  call.session.holdUntil(0);
  pending.delete(call.session);
  return {
    outcome,
    ...(answer ? { answer } : {}),
    url: capture.url,
    ...(wallBefore ? { wallBefore } : {}),
    ...(wall ? { wall } : {}),
    wallGone: !!wallBefore && wall !== wallBefore,
    snapshot: formatted.text,
  };
}

export const handoffTool = defineBrowserTool({
  id: 'browser_handoff',
  description:
    'Hand the page to a person when a wall needs one: a CAPTCHA, a bot check that stays, a code sent to their phone, a payment to confirm. Say what they must do in reason. The call waits until they answer (or the time limit passes), then returns the page as it is now: whether the wall is gone, and fresh refs. Use it only for what you cannot do yourself.',
  input: z.object({
    reason: z.string().min(1).max(500).describe('What the person must do, e.g. "Solve the CAPTCHA on the sign-in page".'),
    timeoutSeconds: z.number().int().min(1).max(MAX_SECONDS).optional().describe(`How long to wait for them. Default ${DEFAULT_SECONDS}.`),
  }),
  output: {
    outcome: z
      .enum(['done', 'declined', 'expired', 'suspended', 'person_needed'])
      .describe('done: the person says they did it. declined: they could not. expired: nobody answered in time. suspended: the call waits for a person (the host resumes it). person_needed: no way to ask here: tell the user.'),
    answer: z.string().optional().describe('What the person answered.'),
    url: z.string(),
    wallBefore: z.string().optional().describe('The wall the page showed when it was handed over.'),
    wall: z.string().optional().describe('The wall the page shows now, if any.'),
    wallGone: z.boolean().optional().describe('True when the wall handed over is no longer there.'),
    snapshot: z.string().optional().describe('The page now, with fresh refs.'),
    instructions: z.string().optional().describe('What to tell the user when no person could be asked from here.'),
  },
  suspendSchema,
  resumeSchema,
  waits: true,
  budget: ({ timeoutSeconds }, config) => (timeoutSeconds ?? DEFAULT_SECONDS) * 1_000 + config.navigationTimeout,
  async handle({ reason, timeoutSeconds }, call) {
    const host = hostOf(call.host);
    const seconds = timeoutSeconds ?? DEFAULT_SECONDS;
    const known = pending.get(call.session);

    if (host.resumeData !== undefined) {
      // The person answered (Mastra resumed the call), in this process or in another after the session was saved.
      const answer = Array.isArray(host.resumeData) ? host.resumeData.join(', ') : String(host.resumeData);
      const expiresAt = known?.expiresAt ?? (host.suspendPayload?.expiresAt ? Date.parse(host.suspendPayload.expiresAt) : Infinity);
      const wallBefore = known?.wall ?? host.suspendPayload?.wall;
      const outcome = Date.now() > expiresAt ? 'expired' : DECLINED.test(answer) ? 'declined' : 'done';
      return report(call, outcome, wallBefore, answer);
    }

    const url = call.tab.page.url();
    if (url === 'about:blank' || call.tab.page.isClosed()) {
      throw new BrowserToolError('invalid_input', 'There is no page to hand to a person: the tab is empty (it was closed, or nothing was opened yet).', {
        hint: 'Open the page that needs a person first (browser_navigate, or browser_tabs to switch to it), then hand it over.',
      });
    }
    const { capture } = await call.tab.refs.snapshot();
    const wall = wallOf(capture);
    const expiresAt = Date.now() + seconds * 1_000;
    pending.set(call.session, { expiresAt, wall });
    call.session.holdUntil(expiresAt);
    const question = `A person is needed in the browser: ${reason}. It shows ${capture.title ? `"${capture.title}" ` : ''}${capture.url}${wall ? ` (${wall})` : ''}. Do it in the browser's live view, then answer Done, or Cannot if you cannot.`;

    if (host.suspend) {
      await host.suspend({
        question,
        options: [
          { label: 'Done', description: 'I did it: the agent goes on from the page as it is now.' },
          { label: 'Cannot', description: 'I could not do it: the agent is told.' },
        ],
        selectionMode: 'single_select',
        reason,
        url: capture.url,
        title: capture.title,
        ...(wall ? { wall } : {}),
        expiresAt: new Date(expiresAt).toISOString(),
      });
      // The session stays put for the person until the limit: idle eviction waits for it (session.holdUntil).
      return { outcome: 'suspended' as const, url: capture.url, ...(wall ? { wallBefore: wall } : {}) };
    }

    if (host.elicit) {
      const abort = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      const expired = new Promise<'expired'>((resolve) => (timer = setTimeout(() => resolve('expired'), seconds * 1_000)));
      try {
        const answered = await Promise.race([
          host.elicit(
            {
              message: question.replace(' live view', ' window'),
              requestedSchema: { type: 'object', properties: { done: { type: 'boolean', title: 'Done', description: 'I did it' } }, required: ['done'] },
            },
            { signal: abort.signal },
          ),
          expired,
        ]);
        if (answered === 'expired') return report(call, 'expired', wall);
        const done = answered.action === 'accept' && answered.content?.done !== false;
        return report(call, done ? 'done' : 'declined', wall, answered.action === 'accept' ? (done ? 'Done' : 'Cannot') : answered.action);
      } catch (error) {
        // A client that cannot ask after all: said as when there is no way to ask.
        if (!(error instanceof Error) || !/elicit|not supported|Method not found|-32601/i.test(error.message)) throw error;
      } finally {
        clearTimeout(timer);
        abort.abort();
      }
    }

    call.session.holdUntil(0);
    pending.delete(call.session);
    return {
      outcome: 'person_needed' as const,
      url: capture.url,
      ...(wall ? { wallBefore: wall } : {}),
      instructions: `Tell the user a person must act in the browser: ${reason}, on ${capture.url}. Nothing here waits for them: once they say they are done, take browser_snapshot and go on.`,
    };
  },
});
