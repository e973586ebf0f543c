/** The shapes shared by task pages, policies, adapters and the runner. */
import type { CallTokens } from './breakdown.js';
import type { Rng } from './random.js';

export const CATEGORIES = [
  'forms',
  'tables',
  'date pickers',
  'autocomplete',
  'trees',
  'tabs & menus',
  'scrolling',
  'long instructions',
  'letters',
  'script-bound',
  'icons',
  'dialogs',
  'multi-step',
  'hidden labels',
  // Files: a PDF or CSV downloaded and read, a download uploaded on another site (pages/files.ts).
  'files',
  // Real widget libraries, served from node_modules (pages/widgets/).
  'date pickers (real)',
  'sortable lists',
  'editors',
  'web components',
  'data grids',
  'calendars',
  'searchable selects',
  'modal forms',
  'api explorer',
] as const;
export type Category = (typeof CATEGORIES)[number];

/** What a page generator gets besides its spec: which page of the task, and how to link to another one. */
export interface RenderContext {
  /** `main` unless the task has several pages (a login, then a dashboard). */
  page: string;
  episode: string;
  /** The URL of another page of the same task and episode. */
  url: (page: string) => string;
  /** The URL of another page of the same task and episode, on another site (another host name, same server). */
  otherSite: (page: string) => string;
  /** The URL of a file of the task (`TaskDef.file`). */
  fileUrl: (name: string) => string;
}

/** A file a task serves: its bytes, type, and the name it is downloaded under when it is an attachment. */
export interface TaskFile {
  body: Buffer | string;
  type: string;
  attachment?: string;
}

/**
 * One task: a page generated from a seed that shows its instruction and decides success itself.
 * `generate` draws the random content; `render` turns it into HTML. They are split so that the harness
 * test can solve a page with direct Playwright actions from the spec, which the agent never sees.
 */
export interface TaskDef<S = any> {
  id: string;
  category: Category;
  /** The policy that solves tasks of this type (a key of POLICIES). */
  policy: string;
  /** What the task checks, for the report. */
  summary: string;
  generate: (rng: Rng) => S;
  render: (spec: S, context: RenderContext) => string;
  /** The files the task's pages link to, by name (a PDF invoice, a CSV export). */
  file?: (spec: S, name: string) => Promise<TaskFile | undefined>;
}

/** What the page reported: the first report of an episode is final, as in MiniWoB. */
export interface PageVerdict {
  success: boolean;
  detail: string;
}

/**
 * Why an episode failed, as a model would experience it:
 * - instruction: the instruction could not be read whole from any tool result;
 * - value: a value the task needs (a cell, a field's text, a code) was not in any tool result;
 * - no_ref: the needed control was not found with a ref (missing, or shown without one or without a usable name);
 * - wrong_element: the policy acted, but the page says the result is wrong (or registered nothing);
 * - tool_error: a tool call failed (the code says how);
 * - step_budget: the tool-call budget ran out;
 * - no_files: the system has no tool that reads a downloaded file (or uploads one), so a model could not either.
 */
export type Cause = 'instruction' | 'value' | 'no_ref' | 'wrong_element' | 'tool_error' | 'step_budget' | 'no_files';

export const CAUSE_LABELS: Record<Cause, string> = {
  instruction: 'instruction not readable',
  value: 'value not shown',
  no_ref: 'no ref for the needed control',
  wrong_element: 'wrong element / no effect',
  tool_error: 'tool error',
  step_budget: 'step budget',
  no_files: 'cannot read or upload downloaded files',
};

export interface EpisodeResult {
  task: string;
  category: Category;
  seed: number;
  system: string;
  success: boolean;
  cause?: Cause;
  /** What exactly went wrong: the missing control, the page's verdict, the error code. */
  detail?: string;
  toolCalls: number;
  /** o200k tokens of every tool result the model would read in this episode. */
  tokens: number;
  /** The tools called, in order, for reading a failure. */
  trace: string[];
  /** Where each call's tokens went, in order (breakdown.ts); read by bench/tokens.ts. */
  calls?: CallTokens[];
  seconds: number;
}
