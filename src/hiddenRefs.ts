/**
 * Finds the element that carried a ref even after it left the snapshot (for example because it was
 * hidden), so a hidden element can be reported as `element_not_visible` instead of `stale_ref`.
 *
 * Playwright remembers each element's ai-mode ref on the element itself, in its isolated world; a
 * selector engine registered as a content script runs in that same world and can read it. This relies
 * on a playwright-core internal (pinned to an exact version), so it is used for diagnosis only, never to act.
 */
import { selectors, type Page } from 'playwright-core';

const ENGINE = 'mbt-lingering-ref';
let registered: Promise<void> | undefined;

/** Plain source text: a serialised function could carry bundler helpers that the page lacks. */
const ENGINE_SOURCE = `({
  queryAll(root, ref) {
    return [...root.querySelectorAll('*')].filter((el) => el._ariaRef && el._ariaRef.ref === ref);
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

/** True when the element that had `ref` in this document is still attached but not visible. */
export async function isHiddenRef(page: Page, ref: string): Promise<boolean> {
  if (!/^e\d+$/.test(ref) && !/^f\d+e\d+$/.test(ref)) return false;
  await registerHiddenRefEngine();
  try {
    const locator = page.locator(`${ENGINE}=${ref}`);
    return (await locator.count()) === 1 && !(await locator.isVisible());
  } catch {
    return false;
  }
}
