/**
 * Who made a tab's data requests: the scripts on the call stack when the page called `fetch` or
 * `XMLHttpRequest` (Chromium's initiator, from a CDP session of the tab's own). Playwright does not say. The
 * load policy uses it to treat an analytics script's collect call like the script itself: other sites' code is
 * not waited for (traffic.ts; DECISIONS 60, 66). Traffic asks it only about the main document's requests (a
 * frame's are sorted by whose frame it is), keyed by URL: the latest request to a URL is the one known.
 */
import type { Page } from 'playwright-core';

interface StackTrace {
  callFrames: Array<{ url: string }>;
  parent?: StackTrace;
}

interface RequestWillBeSent {
  request: { url: string };
  type?: string;
  initiator: { type: string; stack?: StackTrace };
}

/** How many data requests' initiators are kept: the most recent ones, for requests still to be sorted. */
const KEPT = 500;

export class Initiators {
  /** URL of a data request -> the script URLs on its stack, newest requests last. */
  private readonly scripts = new Map<string, string[]>();

  /** `onLearned` hears the URL of each data request whose initiator became known, to sort it if it is already in flight. */
  constructor(page: Page, onLearned: (url: string) => void) {
    void this.attach(page, onLearned);
  }

  /**
   * The scripts on the stack that made a data request to `url` (the latest such request), or undefined when
   * that is not known: no stack (the browser itself, a form), or no CDP session (another browser engine).
   */
  scriptsOf(url: string): string[] | undefined {
    return this.scripts.get(url);
  }

  private async attach(page: Page, onLearned: (url: string) => void): Promise<void> {
    try {
      const session = await page.context().newCDPSession(page);
      session.on('Network.requestWillBeSent', (event: RequestWillBeSent) => {
        if (event.type !== 'XHR' && event.type !== 'Fetch') return;
        const urls = stackScripts(event.initiator.stack);
        if (!urls.length) return;
        this.scripts.delete(event.request.url);
        this.scripts.set(event.request.url, urls);
        if (this.scripts.size > KEPT) this.scripts.delete(this.scripts.keys().next().value!);
        onLearned(event.request.url);
      });
      // Only what the events need: no request bodies kept for this session.
      await session.send('Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 });
      page.once('close', () => void session.detach().catch(() => {}));
    } catch {
      // Not Chromium, or the tab is already gone: every data request stays waited for.
    }
  }
}

/** The distinct script URLs on a stack and the stacks it was called from (async parents, when Chromium gives them). */
function stackScripts(stack: StackTrace | undefined): string[] {
  const urls = new Set<string>();
  for (let part = stack; part; part = part.parent) for (const frame of part.callFrames) urls.add(frame.url);
  return [...urls];
}
