/**
 * Hidden text on the corpus: for every saved page, how much text a person cannot see each result left out (the
 * snapshot's count line in both scopes, browser_read's note), which texts they were and why (for a person to
 * judge each one: a false alarm hides what a person reads), and any line marking text addressed to the agent.
 *
 *   npx tsx bench/hiddenText.ts                      every page of the corpus
 *   npx tsx bench/hiddenText.ts --pages a.html,b.html
 *
 * Prints one block per page that left something out or was marked; nothing is written.
 */
import { readdirSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BrowserToolset } from '../src/index.js';
import { evaluateInPage } from '../src/inPage.js';
import { ADDRESSED_LINE } from '../src/snapshot/addressed.js';
import { hideHiddenText, releaseHiddenText } from '../src/snapshot/hiddenText.js';
import { LISTENERS_KEY } from '../src/snapshot/listeners.js';
import { sight } from '../src/snapshot/sight.js';
import { resultText, type ResultLike } from '../src/tools/modelText.js';
import { CORPUS_DIR, OFFLINE_ARGS, startServer } from '../test/helpers/server.js';

const MARKERS_KEY = 'mastra-browser-toolset.benchHidden';
const ATTRIBUTE = 'data-bench-hidden';

/** Runs in the page: the texts `hideHiddenText` marked, with why, then the marks taken off. */
function markedTexts(args: { attribute: string; markersKey: string }, helpers: { releaseHiddenText: typeof releaseHiddenText }): string[] {
  const found: string[] = [];
  const docs = [document, ...[...document.querySelectorAll('iframe')].flatMap((f) => { try { return f.contentDocument ? [f.contentDocument] : []; } catch { return []; } })];
  for (const doc of docs) {
    for (const el of doc.querySelectorAll(`[${args.attribute}]`)) {
      const own = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.textContent ?? '').join(' ').replace(/\s+/g, ' ').trim();
      found.push(`${el.getAttribute(args.attribute)}: <${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).slice(0, 2).join('.')}` : ''}> ${JSON.stringify(own.slice(0, 90))}`);
    }
  }
  helpers.releaseHiddenText(args.markersKey);
  return found;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { pages: { type: 'string' } } });
  const pages = values.pages ? values.pages.split(',') : readdirSync(CORPUS_DIR).filter((f) => f.endsWith('.html')).sort();
  const server = await startServer();
  const toolset = new BrowserToolset({ args: OFFLINE_ARGS, navigationTimeout: 15_000, timeout: 10_000 });
  const tools = toolset.tools as Record<string, { execute?: (input: unknown, context: unknown) => Promise<unknown> }>;
  const run = async (tool: string, input: unknown) => resultText((await tools[tool]!.execute!(input, {})) as ResultLike);
  const count = (text: string) => Number(/left out: (\d+) hidden text/.exec(text)?.[1] ?? /(\d+) hidden texts? (?:was|were) left out/.exec(text)?.[1] ?? 0);
  const marked = (text: string) => text.split('\n').filter((line) => line.trim() === ADDRESSED_LINE).length;
  let pagesWith = 0;
  let addressedPages = 0;
  try {
    for (const name of pages) {
      const viewport = await run('browser_navigate', { url: server.url(`/corpus/${name}`), waitUntil: 'load' });
      const whole = await run('browser_snapshot', { scope: 'page' });
      const read = await run('browser_read', {});
      const { session } = await toolset.sessions.get('default');
      let texts: string[] = [];
      try {
        const { page } = (await session.activeTab()).tab;
        await evaluateInPage(page, hideHiddenText, { markersKey: MARKERS_KEY, mode: 'read' as const, readAttribute: ATTRIBUTE, listenersKey: LISTENERS_KEY }, { sight });
        texts = await evaluateInPage(page, markedTexts, { attribute: ATTRIBUTE, markersKey: MARKERS_KEY }, { releaseHiddenText });
      } finally {
        toolset.sessions.done('default');
      }
      const counts = [count(viewport), count(whole), count(read)];
      const addressed = [marked(viewport), marked(whole), marked(read)];
      if (!counts.some(Boolean) && !addressed.some(Boolean) && !texts.length) continue;
      if (counts.some(Boolean) || texts.length) pagesWith++;
      if (addressed.some(Boolean)) addressedPages++;
      console.log(`## ${name}: left out viewport ${counts[0]}, page ${counts[1]}, read ${counts[2]}; addressed lines ${addressed.join('/')}`);
      for (const text of texts) console.log(`  ${text}`);
    }
  } finally {
    await toolset.close();
    await server.close();
  }
  console.log(`\n${pagesWith} of ${pages.length} pages left hidden text out; ${addressedPages} got a line marking text addressed to the agent.`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
