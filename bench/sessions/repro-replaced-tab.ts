/**
 * Reproduction (found by bench:sessions at 50 threads on a loaded 2-core machine): when a call finds its tab
 * hung and replaces it (BrowserSession.recover), but closing the hung tab takes longer than closeQuickly's 3 s,
 * the tab being closed is still in `context.pages()` and not yet `isClosed()`, so `activePage()` makes it the
 * active tab again. The call then acts on the tab it just gave up on, and fails when the close lands
 * (`browser_closed`, or `timeout` if the tab stays hung), while its notice says the tab was replaced.
 *
 * A slow close is what a starved machine produced in the benchmark; here it is simulated by delaying
 * `page.close` by 4 s. Run: `npx tsx bench/sessions/repro-replaced-tab.ts`; with `--normal-close` (no delay) the
 * same calls work: the next call gets a fresh tab.
 */
import { BrowserToolset } from '../../src/index.js';
import { OFFLINE_ARGS, startServer } from '../../test/helpers/server.js';

const server = await startServer();
const toolset = new BrowserToolset({ args: OFFLINE_ARGS, allowEvaluate: true, timeout: 2_000, navigationTimeout: 5_000 });
const context = { agent: { threadId: 'repro' } };
const call = (tool: string, input: object): Promise<any> => (toolset.tools as any)[tool].execute(input, context);

try {
  console.log('navigate:', (await call('browser_navigate', { url: server.url('/fixtures/page-a.html') })).ok);
  const session = toolset.sessions.peek('thread:repro')!;
  const hung = session.tabs.all()[0]!.page;
  if (!process.argv.includes('--normal-close')) {
    // Closing this tab will take 4 s, as it did for starved renderers in the benchmark.
    const close = hung.close.bind(hung);
    hung.close = async (options) => {
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      return close(options);
    };
  }

  const stuck = await call('browser_evaluate', { script: 'while (true) {}' });
  console.log('endless script:', stuck.ok, stuck.error?.code);

  const next = await call('browser_snapshot', {});
  console.log('next call:', next.ok, next.error?.code ?? '', next.error?.message ?? '');
  console.log('  notices:', next.notices);
  console.log('  the active tab is the one it replaced:', session.tabs.activeTab?.page === hung, '| that tab is closed now:', hung.isClosed());

  const after = await call('browser_snapshot', {});
  console.log('call after that:', after.ok, after.error?.code ?? '', (after.notices ?? []).join(' | '));
} finally {
  await toolset.close();
  await server.close();
}
