/**
 * Rescuing a tab that a load or a script wedged: its load stopped, and whether its renderer still answers. A tab
 * whose renderer is hung (an endless loop) cannot be helped; its owner closes it, with the tabs hung with it
 * (`closeHung`), and opens another.
 */
import type { Page } from 'playwright-core';
import type { Deadline } from '../deadline.js';
import { schemefulSiteOf } from './sites.js';
import type { LoadingTab } from './tabLoading.js';
import { HUNG_ANSWER_MS, rendererAnswers, runsScript, stopLoading } from './tabControl.js';

/**
 * Frees `tab` and says whether it answers now. A document still on its way is stopped (it holds the tab's scripts
 * until it commits), or, after a call that ran out of time (`afterTimeout`), whatever the tab was loading; then the
 * tab is asked to run a trivial script. After a timeout only a script that runs counts as an answer; otherwise any
 * answer does, a failure included (a document being replaced answers with one). The tab is given `HUNG_ANSWER_MS`,
 * or a third of what is left of `deadline`. 'hung': its renderer said nothing, and nothing can be done in this tab.
 */
export async function rescueTab(tab: LoadingTab, { deadline, afterTimeout = false }: { deadline?: Deadline; afterTimeout?: boolean } = {}): Promise<'answers' | 'hung'> {
  const page = tab.page;
  if (afterTimeout || tab.loading.traffic.documentPending()) await stopLoading(page);
  const ms = deadline ? Math.min(HUNG_ANSWER_MS, deadline.forStep() / 3) : HUNG_ANSWER_MS;
  const answers = afterTimeout ? await runsScript(page, ms) : await rendererAnswers(page, ms);
  return answers ? 'answers' : 'hung';
}

/**
 * Closes `hung`, whose renderer is hung, with the tabs of `others` hung along with it, and returns those. The
 * launched browser keeps the tabs of one site in one process (config.ts), and a tab a page opened shares that
 * page's process: a page of that site opened while any of them is left would join the hung process and never
 * load. So the tabs of the same site, and those opened by or opening it, that do not answer within `ms` are
 * closed too (by `close`, the owner's, which waits until each has gone).
 */
export async function closeHung<T extends { page: Page }>(hung: T, others: T[], ms: number, close: (tab: T) => Promise<void>): Promise<T[]> {
  const site = schemefulSiteOf(hung.page.url());
  // Before any tab closes: a closed opener is no longer named as one.
  const family = await openerRoot(hung.page);
  const related = await Promise.all(others.map(async (other) => (site && schemefulSiteOf(other.page.url()) === site) || (await openerRoot(other.page)) === family));
  const [, answers] = await Promise.all([close(hung), Promise.all(others.map(async (other, i) => !related[i] || (await rendererAnswers(other.page, ms))))]);
  const alsoHung = others.filter((_, i) => !answers[i]);
  await Promise.all(alsoHung.map(close));
  return alsoHung;
}

/** The first tab of the chain of tabs that opened `page` (itself when no page opened it). */
async function openerRoot(page: Page): Promise<Page> {
  let root = page;
  for (let steps = 0; steps < 20; steps++) {
    const opener = await root.opener().catch(() => null);
    if (!opener) break;
    root = opener;
  }
  return root;
}
