/**
 * What a policy needs from a browser toolset, as one interface: every method is exactly one tool call
 * (counted by the agent), and every result is an Observation in the common form. The adapters differ in
 * tool names, arguments and output parsing only.
 */
import type { View } from '../policy/view.js';

export interface Observation {
  /** `browser_click {"ref":"e12"}`, for traces. */
  call: string;
  /** Exactly the text the model would read, whose tokens are counted. */
  sent: string;
  tokens: number;
  ok: boolean;
  error?: { code: string; message: string };
  /** Page content carried by the result: a whole snapshot, or part of one (changes, subtree, find). */
  view?: View;
  /** A dialog opened by the action that waits for an answer. */
  pendingDialog?: { type: string; message: string };
  /** For scrolls: the end of the page (or element) is reached. */
  atBottom?: boolean;
  /** Files the call downloaded, by the name the system gives them. */
  downloads?: string[];
  /** The text of a file the call opened or read (a PDF, a CSV), when the system gives one. */
  fileText?: string;
  /** The call that reads on, when the file's text came in parts. */
  next?: { file: string; page: number };
}

/** What the policy is looking for, so the adapter can offer the richer views a careful model would use. */
export interface Need {
  kind: 'control' | 'text';
  /** A word the thing is known to contain, for systems that can search the page. */
  keyword?: string;
  /** The element whose content is wanted (a field whose value is shown cut short), for systems that can show one element. */
  ref?: string;
}

export type ViewRequest =
  | { kind: 'page'; maxTokens?: number }
  | { kind: 'subtree'; ref: string }
  | { kind: 'find'; text: string; ref?: string }
  | { kind: 'read'; ref?: string }
  | { kind: 'full' };

export interface TypeOptions {
  /** Key by key, for fields that react to each key (autocompletes). */
  slowly?: boolean;
}

export interface Adapter {
  readonly id: string;
  readonly description: string;
  /** `press` can be aimed at a ref; otherwise it goes to the focused element. */
  readonly pressTargetsRef: boolean;
  /**
   * How confirm() and prompt() are answered: `after` an action reports a pending dialog, with answerDialog;
   * or by a `trigger` tool that clicks and answers in one call (clickWithDialog).
   */
  readonly dialogStyle: 'after' | 'trigger';
  /**
   * A find limited to an element (`view({ kind: 'find', ref })`) scrolls it until the text is drawn: one call
   * reaches a far row of a virtual grid or list.
   */
  readonly findScrolls?: boolean;
  /** Refs are renumbered by every snapshot, so refs of earlier views must not be used. */
  readonly refsFromLastSnapshotOnly?: boolean;

  start(): Promise<void>;
  close(): Promise<void>;
  /** Between episodes, outside the agent's count: a blank page and no open dialog. */
  reset(): Promise<void>;

  navigate(url: string): Promise<Observation>;
  /** The snapshot a careful model takes for this need (a system with a text-free default may give more for text). */
  snapshot(need?: Need): Promise<Observation>;
  /** Richer views than the default snapshot, in the order a careful model would ask for them. */
  moreViews(need: Need, current: View | undefined): ViewRequest[];
  view(request: ViewRequest): Promise<Observation>;
  /** One screen down (the page, or inside the element `ref`); the view comes with it when the system returns one. */
  scroll(ref?: string): Promise<Observation>;

  click(ref: string): Promise<Observation>;
  type(ref: string, text: string, options?: TypeOptions): Promise<Observation>;
  select(ref: string, label: string): Promise<Observation>;
  /** Sets a checkbox or radio; systems without a check tool click it (the agent only asks for a change). */
  check(ref: string, checked: boolean): Promise<Observation>;
  press(key: string, ref?: string): Promise<Observation>;
  /** Drags the element `from` onto the element `to` (a sortable list's item onto another). */
  drag(from: string, to: string): Promise<Observation>;
  answerDialog(accept: boolean, text?: string): Promise<Observation>;
  /** Reads a downloaded file by name, one part at a time; absent when the system has no such tool. */
  readFile?(name: string, page?: number): Promise<Observation>;
  /** Attaches a downloaded file (by name) to a file input; absent when the system cannot name a download to upload. */
  uploadDownload?(ref: string, name: string): Promise<Observation>;
  clickWithDialog(ref: string, accept: boolean, text?: string): Promise<Observation>;
}
