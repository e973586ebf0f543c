/**
 * Fast checks before an action, so the model hears at once why it cannot act
 * instead of waiting out Playwright's actionability timeout.
 */
import type { Locator } from 'playwright-core';
import { BrowserToolError, toBrowserToolError } from '../../errors.js';

export async function ensureVisible(locator: Locator, what: string): Promise<void> {
  if (!(await locator.isVisible())) {
    throw new BrowserToolError('element_not_visible', `${what} is on the page but hidden (not visible).`);
  }
}

export async function ensureEnabled(locator: Locator, what: string): Promise<void> {
  if (!(await locator.isEnabled())) throw new BrowserToolError('element_disabled', `${what} is disabled.`);
}

/**
 * A trial click runs Playwright's checks (stable, visible, receives events) without clicking.
 * If another element would receive the click, say which one now; other waits fall through to the real action.
 */
export async function ensureNotBlocked(locator: Locator, what: string, timeout: number): Promise<void> {
  try {
    await locator.click({ trial: true, timeout: Math.min(1_500, timeout) });
  } catch (error) {
    const mapped = toBrowserToolError(error, what);
    if (mapped.code === 'element_blocked' || mapped.code === 'browser_closed') throw mapped;
  }
}
