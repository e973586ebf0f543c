/**
 * Finds the element that carried a ref even after it left Playwright's latest snapshot: Playwright resolves
 * `getByRef` against its latest capture only, and a viewport capture covers one screen (region.ts), so a ref
 * from an earlier whole-page listing, or of an element since hidden, is not among them.
 *
 * Playwright remembers each element's ai-mode ref on the element itself, in its isolated world; a selector
 * engine registered as a content script runs in that same world and can read it. The ref stays on the element
 * until a capture sees it with another role or name, so what is found is the very element the ref was given
 * to. This relies on a playwright-core internal (pinned to an exact version).
 */
import { selectors, type Locator, type Page } from 'playwright-core';

const ENGINE = 'mbt-lingering-ref';
let registered: Promise<void> | undefined;

/** Plain source text: a serialised function could carry bundler helpers that the page lacks. Walks open shadow roots too, as Playwright's capture does. */
const ENGINE_SOURCE = `({
  queryAll(root, ref) {
    const found = [];
    const visit = (scope) => {
      for (const el of scope.querySelectorAll('*')) {
        if (el._ariaRef && el._ariaRef.ref === ref) found.push(el);
        if (el.shadowRoot) visit(el.shadowRoot);
      }
    };
    visit(root);
    return found;
  },
  query(root, ref) {
    return this.queryAll(root, ref)[0] || null;
  },
})`;

/** Must run before a browser context is created: contexts only know the engines registered before them. */
export function registerHiddenRefEngine(): Promise<void> {
  registered ??= selectors
    .register(ENGINE, { content: ENGINE_SOURCE }, { contentScript: true })
    .catch(() => {}); // already registered by another toolset in this process
  return registered;
}

function isRef(ref: string): boolean {
  return /^(?:f\d+)?e\d+$/.test(ref);
}

/** True when the element that had `ref` in this document is still attached but not visible. */
export async function isHiddenRef(page: Page, ref: string): Promise<boolean> {
  if (!isRef(ref)) return false;
  await registerHiddenRefEngine();
  try {
    const locator = page.locator(`${ENGINE}=${ref}`);
    return (await locator.count()) === 1 && !(await locator.isVisible());
  } catch {
    return false;
  }
}

/** A locator of the visible element of the main frame that still carries `ref`, if there is exactly one. */
export async function lingeringRef(page: Page, ref: string): Promise<Locator | undefined> {
  if (!isRef(ref)) return undefined;
  await registerHiddenRefEngine();
  try {
    const locator = page.locator(`${ENGINE}=${ref}`);
    return (await locator.count()) === 1 && (await locator.isVisible()) ? locator : undefined;
  } catch {
    return undefined;
  }
}
