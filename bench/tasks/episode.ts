/**
 * One episode: one task, one seed, one system. The policy drives the system's tools from a blank page; the
 * verdict comes from the page (through the server), never from the agent's tools. A failure gets a cause:
 * the page's verdict when it gave one, else the reason the policy gave up.
 */
import { randomUUID } from 'node:crypto';
import type { Adapter } from './adapters/types.js';
import { Agent, EpisodeOver, PolicyFailure } from './policy/agent.js';
import { POLICIES } from './policy/index.js';
import type { TaskServer } from './server.js';
import type { Cause, EpisodeResult, TaskDef } from './types.js';

export const STEP_BUDGET = 20;
/** A policy that runs longer than this is stopped (a hung tool call), and the episode counts as failed. */
const EPISODE_TIMEOUT_MS = 120_000;
/** The page posts its verdict with fetch; give the request a moment to arrive after the last call. */
const VERDICT_GRACE_MS = 500;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForVerdict(server: TaskServer, episode: string) {
  for (let waited = 0; waited < VERDICT_GRACE_MS; waited += 50) {
    const verdict = server.verdict(episode);
    if (verdict) return verdict;
    await sleep(50);
  }
  return server.verdict(episode);
}

export interface EpisodeOptions {
  budget?: number;
  /**
   * Bring the system to a blank page first (default true). The runner skips it after a success, when
   * nothing can be left open; navigating to the task replaces the page anyway.
   */
  reset?: boolean;
}

/** Runs one episode. Throws only when the system itself broke (the runner restarts it). */
export async function runEpisode(adapter: Adapter, server: TaskServer, task: TaskDef, seed: number, options: EpisodeOptions = {}): Promise<EpisodeResult> {
  const policy = POLICIES[task.policy];
  if (!policy) throw new Error(`task ${task.id}: no policy "${task.policy}"`);
  const episode = randomUUID().slice(0, 8);
  const started = Date.now();
  if (options.reset ?? true) await adapter.reset();
  const agent = new Agent(adapter, options.budget ?? STEP_BUDGET, () => server.verdict(episode) !== undefined);

  let failure: { cause: Cause; detail: string } | undefined;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      policy(agent, server.taskUrl(task.id, seed, episode)),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`episode timed out after ${EPISODE_TIMEOUT_MS / 1000} s`)), EPISODE_TIMEOUT_MS))),
    ]);
  } catch (error) {
    if (error instanceof PolicyFailure) failure = { cause: error.reason, detail: error.detail };
    else if (!(error instanceof EpisodeOver)) throw error;
  } finally {
    clearTimeout(timer);
  }

  const verdict = await waitForVerdict(server, episode);
  const result: EpisodeResult = {
    task: task.id,
    category: task.category,
    seed,
    system: adapter.id,
    success: verdict?.success === true,
    toolCalls: agent.calls,
    tokens: agent.tokens,
    trace: agent.trace,
    calls: agent.breakdown,
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };
  if (!result.success) {
    // A page that judged the outcome has the last word: the agent acted on something, and it was wrong.
    if (verdict) Object.assign(result, { cause: 'wrong_element', detail: `page: ${verdict.detail}` });
    else if (failure) Object.assign(result, failure);
    else Object.assign(result, { cause: 'wrong_element', detail: 'the policy finished but the page registered no result' });
  }
  return result;
}
