/**
 * The one place where browser and Playwright failures become something a model can act on.
 * Every tool result that is not `ok` carries a `ToolError`: a code, a message, a hint and
 * whether the same call may succeed if simply retried.
 */

export const ERROR_CODES = [
  'stale_ref',
  'element_not_found',
  'element_blocked',
  'element_not_visible',
  'element_disabled',
  'not_focusable',
  'not_editable',
  'timeout',
  'navigation_failed',
  'dialog_open',
  'invalid_input',
  'browser_not_found',
  'browser_closed',
  'browser_error',
  'busy',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ToolError {
  code: ErrorCode;
  message: string;
  /** What the model should do next, written for the model. */
  hint: string;
  /** True when repeating the same call (perhaps after a wait) may succeed. */
  retryable: boolean;
  /** A fresh snapshot, attached when the refs the model holds are no longer valid. */
  snapshot?: string;
}

const DEFAULT_HINTS: Record<ErrorCode, { hint: string; retryable: boolean }> = {
  stale_ref: {
    hint: 'The page changed since your snapshot. Use the refs from the fresh snapshot included here and retry.',
    retryable: true,
  },
  element_not_found: {
    hint: 'Take browser_snapshot and use a ref exactly as it appears there (for example e12).',
    retryable: false,
  },
  element_blocked: {
    hint: 'Another element covers the target. Close or accept the covering pop-up, dialog, banner or menu first (browser_press Escape closes most pop-ups and date pickers), then retry.',
    retryable: true,
  },
  element_not_visible: {
    hint: 'The element is hidden. Open the menu, tab or section that contains it (or scroll), take a new snapshot, then retry.',
    retryable: true,
  },
  element_disabled: {
    hint: 'The control is disabled. Complete the required fields or steps that enable it, then retry.',
    retryable: true,
  },
  not_focusable: {
    hint: 'This element cannot receive keyboard input. Pick a textbox, searchbox or other field ref from the snapshot.',
    retryable: false,
  },
  not_editable: {
    hint: 'This element is not a text field. Pick a textbox, searchbox, combobox or contenteditable ref from the snapshot.',
    retryable: false,
  },
  timeout: {
    hint: 'The page did not respond in time. Take browser_snapshot to see its current state, then retry or try another way.',
    retryable: true,
  },
  navigation_failed: {
    hint: 'Check the URL for typos, or try another address. The previous page is still open.',
    retryable: false,
  },
  dialog_open: {
    hint: 'A dialog is waiting for an answer and blocks the page. Answer it with browser_dialog (accept true or false), then continue.',
    retryable: true,
  },
  invalid_input: {
    hint: 'Fix the arguments as described in the message and call the tool again.',
    retryable: false,
  },
  browser_not_found: {
    hint: 'Install the npm-shipped Chromium (`npm install @sparticuz/chromium`) or Chrome/Chromium on the machine, or set `executablePath`, `cdpUrl` or `wsEndpoint` in the BrowserToolset config.',
    retryable: false,
  },
  browser_closed: {
    hint: 'The browser closed. Call the tool again: a new browser starts automatically, but the previous pages are gone, so navigate again.',
    retryable: true,
  },
  browser_error: {
    hint: 'An unexpected browser error. Take browser_snapshot to check the page state, then retry or try another way.',
    retryable: true,
  },
  busy: {
    hint: 'This browser is in use elsewhere right now. Wait a few seconds and call the tool again.',
    retryable: true,
  },
};

/** An error with a code; thrown inside tools and turned into a `ToolError` at the tool boundary. */
export class BrowserToolError extends Error {
  readonly code: ErrorCode;
  readonly hint: string;
  readonly retryable: boolean;
  snapshot?: string;

  constructor(code: ErrorCode, message: string, options: { hint?: string; retryable?: boolean; snapshot?: string } = {}) {
    super(message);
    this.name = 'BrowserToolError';
    this.code = code;
    this.hint = options.hint ?? DEFAULT_HINTS[code].hint;
    this.retryable = options.retryable ?? DEFAULT_HINTS[code].retryable;
    this.snapshot = options.snapshot;
  }

  toJSON(): ToolError {
    return {
      code: this.code,
      message: this.message,
      hint: this.hint,
      retryable: this.retryable,
      ...(this.snapshot !== undefined ? { snapshot: this.snapshot } : {}),
    };
  }
}

const NETWORK_ERRORS: Array<[RegExp, string]> = [
  [/ERR_NAME_NOT_RESOLVED/, 'the host name could not be resolved (DNS)'],
  [/ERR_CONNECTION_REFUSED/, 'the server refused the connection'],
  [/ERR_CONNECTION_(RESET|CLOSED|TIMED_OUT)|ERR_TIMED_OUT/, 'the connection failed'],
  [/ERR_ADDRESS_UNREACHABLE|ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED/, 'the network is unreachable'],
  [/ERR_CERT_|ERR_SSL_/, 'the TLS certificate or connection is invalid'],
  [/ERR_BLOCKED_BY_CLIENT|ERR_BLOCKED_BY_RESPONSE/, 'the request was blocked'],
  [/ERR_TOO_MANY_REDIRECTS/, 'the page redirects in a loop'],
  [/ERR_PROXY_[A-Z_]+|ERR_TUNNEL_CONNECTION_FAILED|ERR_SOCKS_[A-Z_]+/, "the browser's proxy could not be reached or refused the request"],
  [/ERR_ABORTED/, 'the navigation was aborted'],
  [/ERR_[A-Z_]+/, 'the page could not be loaded'],
];

/** Playwright prints a call log after its error message; the first line is the useful part. */
function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/^\w+(\.\w+)*: /, '').trim();
}

/** Playwright names the element that received the click instead of the target, e.g. `<div class="overlay">…</div> intercepts pointer events`. */
function describeBlocker(message: string): string | undefined {
  const match = /(<[^\n]*?>(?:…<\/\w+>)?)(?: from <[^\n]*?>(?:…<\/\w+>)? subtree)? intercepts pointer events/.exec(message);
  return match?.[1];
}

/**
 * Maps anything thrown while driving the browser to a `BrowserToolError`.
 * `context` names what was being done ("click e12"), so messages read naturally.
 */
export function toBrowserToolError(error: unknown, context?: string): BrowserToolError {
  if (error instanceof BrowserToolError) return error;
  const raw = error instanceof Error ? error.message : String(error);
  const what = context ? `${context}: ` : '';

  if (/Target page, context or browser has been closed|Browser has been closed|browser has disconnected|Target closed|Connection closed|has been closed/i.test(raw)) {
    return new BrowserToolError('browser_closed', `${what}the browser or tab closed while the action ran.`);
  }
  if (/Page crashed|Target crashed/i.test(raw)) {
    return new BrowserToolError('browser_closed', `${what}the tab crashed.`);
  }
  if (/intercepts pointer events/.test(raw)) {
    const blocker = describeBlocker(raw);
    return new BrowserToolError(
      'element_blocked',
      `${what}the element is covered by ${blocker ? `another element: ${blocker}` : 'another element'}.`,
    );
  }
  if (/Element is not an <input>, <textarea>|not an <input>|Element is not editable|is not a text field/i.test(raw)) {
    return new BrowserToolError('not_editable', `${what}the element is not an editable text field.`);
  }
  if (/element is not visible|Element is not visible/i.test(raw)) {
    return new BrowserToolError('element_not_visible', `${what}the element is not visible.`);
  }
  if (/element is not enabled|element is disabled/i.test(raw)) {
    return new BrowserToolError('element_disabled', `${what}the element is disabled.`);
  }
  for (const [pattern, meaning] of NETWORK_ERRORS) {
    const match = pattern.exec(raw);
    if (match && /net::|page\.goto|navigat/i.test(raw)) {
      return new BrowserToolError('navigation_failed', `${what}${meaning} (${match[0]}).`);
    }
  }
  if ((error instanceof Error && error.name === 'TimeoutError') || /Timeout \d+ms exceeded/.test(raw)) {
    return new BrowserToolError('timeout', `${what}${firstLine(raw)}`);
  }
  return new BrowserToolError('browser_error', `${what}${firstLine(raw)}`);
}
