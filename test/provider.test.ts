/**
 * The toolset as Mastra's browser provider, driven through real core classes: an Agent({ browser }) running the
 * scripted model, Mastra's own screencast and input calls as Studio makes them, one real Chromium.
 */
import { Agent } from '@mastra/core/agent';
import type { ScreencastFrameData } from '@mastra/core/browser';
import { MockMemory } from '@mastra/core/memory';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PageScreencast, ToolsetBrowser } from '../src/index.js';
import { RENEW_AFTER } from '../src/loading/freshFrame.js';
import { scriptedModel, type Decision, type ToolResultSeen } from './helpers/scriptedModel.js';
import { OFFLINE_ARGS, startServer, type TestServer } from './helpers/server.js';
import { refOf } from './helpers/refs.js';

let server: TestServer;
let browser: ToolsetBrowser;

beforeAll(async () => {
  server = await startServer();
  browser = new ToolsetBrowser({ timeout: 3_000, navigationTimeout: 8_000, args: OFFLINE_ARGS });
});

afterAll(async () => {
  await browser.close();
  await server.close();
});

/** An agent on the shared provider whose model plays `turns` in order, then answers with the last result. */
function agentWith(turns: Array<(last: ToolResultSeen | undefined) => Decision>, extra: { memory?: MockMemory } = {}) {
  const seen: ToolResultSeen[][] = [];
  const model = scriptedModel((results, turn) => {
    seen.push(results);
    const play = turns[turn];
    return play ? play(results.at(-1)) : { text: String(results.at(-1)?.output ?? '') };
  });
  const agent = new Agent({ id: 'web', name: 'web', instructions: 'Browse.', model, browser, ...extra });
  return { agent, model, seen };
}

const navigate = (path: string) => () => ({ tools: [{ name: 'browser_navigate', input: { url: server.url(path) } }] });
const snapshot = () => ({ tools: [{ name: 'browser_snapshot', input: {} }] });

type Emitter = Pick<PageScreencast, 'once'>;

/** Resolves with the next event of `name`. */
function next<T>(emitter: Emitter, name: string): Promise<T> {
  return new Promise((resolve) => emitter.once(name, resolve));
}

/**
 * Waits through events of `name` until `done()` holds (frames come only when a page paints, so none may be
 * missed). Not a timing assertion: the bound is far above any normal wait, and only makes a failure say what
 * it was waiting for (`state`) instead of running into the test's timeout.
 */
async function until(done: () => boolean, emitter: Emitter, name: string, state: () => unknown = () => ''): Promise<void> {
  const limit = Date.now() + 25_000;
  while (!done()) {
    const left = limit - Date.now();
    const got = await Promise.race([next(emitter, name).then(() => true), new Promise<false>((resolve) => setTimeout(() => resolve(false), Math.max(0, left)))]);
    if (!got && !done()) throw new Error(`No "${name}" event made the condition hold within 25 s: ${JSON.stringify(state())}`);
  }
}

it('an Agent({ browser }) without memory signs up through the provider’s tools, and Studio sees a browser', async () => {
  const { agent } = agentWith([
    navigate('/fixtures/form.html'),
    (last) => ({
      tools: [
        { name: 'browser_type', input: { ref: refOf(last!.output, 'textbox', 'Full name *'), text: 'Ada Lovelace' } },
        { name: 'browser_type', input: { ref: refOf(last!.output, 'textbox', 'Email *'), text: 'ada@example.com' } },
        { name: 'browser_type', input: { ref: refOf(last!.output, 'textbox', 'Password *'), text: 'correct horse' } },
        { name: 'browser_click', input: { ref: refOf(last!.output, 'checkbox', 'I accept the terms') } },
      ],
    }),
    snapshot,
    (last) => ({ tools: [{ name: 'browser_click', input: { ref: refOf(last!.output, 'button', 'Create account') } }] }),
  ]);

  // How Mastra's server (1.69, agents handler) computes `hasBrowser` for Studio: the agent's browser offers tools.
  expect(agent.browser).toBe(browser);
  expect(Object.keys(agent.browser?.getTools() ?? {}).length > 0).toBe(true);
  expect(Object.keys(agent.browser!.getTools())).toEqual(Object.keys(browser.toolset.tools));
  expect(browser.getTools()).toBe(browser.toolset.tools);
  expect(browser.providerType).toBe('sdk');

  // No `memory` on the agent: Mastra 1.71's default browser processor would throw here.
  const result = await agent.generate('Sign up as Ada Lovelace.', { maxSteps: 8, memory: { thread: 'signup', resource: 'ada' } });
  expect(result.text).toMatch(/Account created|navigated: true/);
  expect(server.submissions.at(-1)!.fields).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com', terms: 'yes' });

  // The tools ran in that thread's session, which is what the provider reports for the thread.
  expect(browser.hasThreadSession('signup')).toBe(true);
  expect(browser.isBrowserRunning('signup')).toBe(true);
  expect(browser.isBrowserRunning('no-such-thread')).toBe(false);
  expect(await browser.getCurrentUrl('signup')).toBe(server.url('/submit'));
  expect(await browser.getBrowserState('signup')).toMatchObject({ tabs: [{ url: server.url('/submit'), title: 'Welcome' }], activeTabIndex: 0 });
  expect(browser.status).toBe('ready');
});

it('with memory, Mastra’s browser state reaches the model between steps and credits the agent’s navigation', async () => {
  const { agent, model } = agentWith([navigate('/fixtures/page-a.html'), navigate('/fixtures/page-b.html')], { memory: new MockMemory() });
  await agent.generate('Open page A, then page B.', { maxSteps: 4, memory: { thread: 'remembered', resource: 'ada' } });
  const prompts = model.doGenerateCalls.map((call) => JSON.stringify(call.prompt));
  // After the first navigation, the state as a whole; after the second, what changed and who changed it (without
  // the provider's word, Mastra would credit a person with any move that was not a browser_click).
  expect(prompts[1]).toContain(`Browser is open. Active tab URL: ${server.url('/fixtures/page-a.html')}.`);
  expect(prompts[2]).toContain(`agent changed active tab URL to ${server.url('/fixtures/page-b.html')}`);
});

it('two threads get isolated sessions and run at the same time', async () => {
  const run = (thread: string, path: string) => agentWith([navigate(path)]).agent.generate('Open it.', { maxSteps: 3, memory: { thread, resource: 'ada' } });
  await Promise.all([run('iso-a', '/fixtures/page-a.html'), run('iso-b', '/fixtures/page-b.html')]);

  const [pageA, pageB] = [(await browser.getActivePage('iso-a'))!, (await browser.getActivePage('iso-b'))!];
  expect(pageA.url()).toBe(server.url('/fixtures/page-a.html'));
  expect(pageB.url()).toBe(server.url('/fixtures/page-b.html'));
  expect(pageA.context()).not.toBe(pageB.context());

  // A cookie of one thread's site is not the other's.
  await pageA.evaluate(() => (document.cookie = 'who=a'));
  expect(await pageA.evaluate(() => document.cookie)).toBe('who=a');
  expect(await pageB.evaluate(() => document.cookie)).toBe('');
});

it('a thread’s screencast sends frames of its tab, follows it to a new tab, and back when that tab closes', async () => {
  // Studio's viewer may be open before the agent browses: it waits for the thread's browser to be ready.
  const ready = new Promise<boolean>((resolve) => browser.onBrowserReady(() => resolve(browser.isBrowserRunning('watched')), 'watched'));
  await agentWith([navigate('/fixtures/page-a.html')]).agent.generate('Open page A.', { maxSteps: 3, memory: { thread: 'watched', resource: 'ada' } });
  expect(await ready).toBe(true);
  // Then it starts the screencast, which only a thread whose browser is open gets.
  expect(await browser.startScreencastIfBrowserActive({ threadId: 'never-used' })).toBeNull();
  const stream = (await browser.startScreencastIfBrowserActive({ threadId: 'watched', quality: 50 })) as PageScreencast;
  expect(stream).toBeInstanceOf(PageScreencast);
  const frames: ScreencastFrameData[] = [];
  const urls: string[] = [];
  stream.on('frame', (frame) => frames.push(frame as ScreencastFrameData));
  stream.on('url', (url) => urls.push(url));
  const state = () => ({ frames: frames.length, urls });
  await until(() => frames.length > 0, stream, 'frame', state);
  expect(Buffer.from(frames[0]!.data, 'base64').subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8])); // a JPEG
  expect(frames[0]!.viewport).toMatchObject({ width: 1280, height: 720 });

  // The agent opens a tab: the stream moves to it, says where it is, and sends its frames.
  const before = frames.length;
  await agentWith([() => ({ tools: [{ name: 'browser_tabs', input: { action: 'new', url: server.url('/fixtures/page-b.html') } }] })]).agent.generate('Open page B in a tab.', {
    maxSteps: 3,
    memory: { thread: 'watched', resource: 'ada' },
  });
  await until(() => urls.includes(server.url('/fixtures/page-b.html')), stream, 'url', state);
  await until(() => frames.length > before, stream, 'frame', state);

  // The tab closes under it (closed by its page, a person or a crash): the stream goes to the tab the thread is left with.
  await (await browser.getActivePage('watched'))!.close();
  await until(() => urls.at(-1) === server.url('/fixtures/page-a.html'), stream, 'url', state);
  expect(stream.isActive()).toBe(true);
  await stream.stop();
  expect(stream.isActive()).toBe(false);
});

it('over a long visit to one site, the live view and the agent only ever see the pages it opened', async () => {
  // More pages of one site than a tab's frame shows before it is renewed through an empty page (freshFrame.ts).
  const paths = Array.from({ length: RENEW_AFTER + 3 }, (_, n) => `/fixtures/page-a.html?visit=${n}`);
  await agentWith([navigate(paths[0]!)]).agent.generate('Open page A.', { maxSteps: 3, memory: { thread: 'long-visit', resource: 'ada' } });
  const stream = (await browser.startScreencastIfBrowserActive({ threadId: 'long-visit' })) as PageScreencast;
  const urls: string[] = [];
  stream.on('url', (url) => urls.push(url));
  const { agent, model } = agentWith(paths.slice(1).map(navigate), { memory: new MockMemory() });
  await agent.generate('Read every page.', { maxSteps: paths.length + 1, memory: { thread: 'long-visit', resource: 'ada' } });
  await stream.stop();
  const prompts = model.doGenerateCalls.map((call) => JSON.stringify(call.prompt));
  expect(prompts.at(-1)).toContain(`agent changed active tab URL to ${server.url(paths.at(-1)!)}`);
  expect(prompts.join('\n')).not.toContain('data:');
  expect(urls.length).toBeGreaterThan(0);
  expect(urls.filter((url) => !paths.some((path) => url === server.url(path)))).toEqual([]);
});

it('a person’s click in the live view reaches the page, and the thread’s next tool result says so', async () => {
  await agentWith([navigate('/fixtures/page-a.html')]).agent.generate('Open page A.', { maxSteps: 3, memory: { thread: 'takeover', resource: 'ada' } });
  const page = (await browser.getActivePage('takeover'))!;
  const box = (await page.getByRole('button', { name: 'Continue' }).boundingBox())!;
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 };

  const clicked = page.waitForResponse((response) => response.url().endsWith('/event?clicked=a-continue'));
  await browser.injectMouseEvent({ type: 'mouseMoved', ...at }, 'takeover');
  await browser.injectMouseEvent({ type: 'mousePressed', ...at, button: 'left', clickCount: 1 }, 'takeover');
  await browser.injectMouseEvent({ type: 'mouseReleased', ...at, button: 'left', clickCount: 1 }, 'takeover');
  await clicked;
  expect(server.events.filter((e) => e === 'clicked=a-continue')).toHaveLength(1);

  // The click left the button focused; Enter from the keyboard presses it again.
  const pressed = page.waitForResponse((response) => response.url().endsWith('/event?clicked=a-continue'));
  await browser.injectKeyboardEvent({ type: 'keyDown', key: 'Enter', code: 'Enter', text: '\r', windowsVirtualKeyCode: 13 }, 'takeover');
  await browser.injectKeyboardEvent({ type: 'keyUp', key: 'Enter', code: 'Enter', windowsVirtualKeyCode: 13 }, 'takeover');
  await pressed;
  expect(server.events.filter((e) => e === 'clicked=a-continue')).toHaveLength(2);

  // Another thread heard nothing; this one is told on its next call.
  const other = agentWith([snapshot]);
  await other.agent.generate('Look.', { maxSteps: 2, memory: { thread: 'iso-b', resource: 'ada' } });
  expect(other.seen.at(-1)!.at(-1)!.output).not.toContain('A person used this browser');
  const { agent, seen } = agentWith([snapshot]);
  await agent.generate('Look again.', { maxSteps: 2, memory: { thread: 'takeover', resource: 'ada' } });
  expect(seen.at(-1)!.at(-1)!.output).toContain('A person used this browser in the live view since your last call (2 input events)');

  // Input for a thread without a browser is refused in words Mastra's input handler treats as "not ready yet".
  await expect(browser.injectKeyboardEvent({ type: 'keyDown', key: 'a' }, 'never-used')).rejects.toThrow(/no active target/i);
});

it('Studio’s address bar opens a page by the load policy: a stuck image does not hold it, a dead server is a timeout and leaves the tab usable', async () => {
  browser.setCurrentThread('address-bar');
  try {
    await browser.navigateTo(server.url('/stuck-image'));
    const page = (await browser.getActivePage('address-bar'))!;
    expect(page.url()).toBe(server.url('/stuck-image'));
    await expect(browser.navigateTo(server.url('/no-answer'))).rejects.toMatchObject({ code: 'timeout' });
    await browser.navigateTo(server.url('/fixtures/page-b.html'));
    expect(await page.title()).toBe('Page B');
  } finally {
    browser.setCurrentThread(undefined);
  }
});

it('Studio’s address bar waits for the thread’s tool call in progress, and never moves the page under it', async () => {
  browser.setCurrentThread('queued');
  try {
    await browser.navigateTo(server.url('/fixtures/page-a.html'));
    const context = { agent: { threadId: 'queued' } };
    const order: string[] = [];
    // A call that would end early if the page were taken away from under it: it waits for Page A's heading to go.
    const waiting = browser.toolset.tools.browser_wait!.execute!({ textGone: 'Page A', seconds: 2 }, context as never).then((result) => {
      order.push('tool call');
      return result as { ok: boolean; error?: { code: string } };
    });
    await expect.poll(() => browser.toolset.sessions.peek('thread:queued')?.busy).toBe(true);
    await browser.navigateTo(server.url('/fixtures/page-b.html'));
    order.push('address bar');
    const waited = await waiting;
    expect(order).toEqual(['tool call', 'address bar']);
    expect(waited).toMatchObject({ ok: false, error: { code: 'timeout' } });
    expect(await (await browser.getActivePage('queued'))!.title()).toBe('Page B');
  } finally {
    browser.setCurrentThread(undefined);
  }
});

it('Studio’s address bar opens its page in a new tab in place of one a script hung, as browser_navigate does', async () => {
  browser.setCurrentThread('hung-bar');
  try {
    await browser.navigateTo(server.url('/busy'));
    const hung = (await browser.getActivePage('hung-bar'))!;
    // A script that never ends, started after this call returns: the tab's renderer is busy for good.
    await hung.evaluate(() => void setTimeout(() => { while (true) {} }, 0));
    await browser.navigateTo(server.url('/fixtures/page-b.html'));
    const page = (await browser.getActivePage('hung-bar'))!;
    expect(page).not.toBe(hung);
    expect(await page.title()).toBe('Page B');
  } finally {
    browser.setCurrentThread(undefined);
  }
});

it('closeThreadSession closes that thread’s context, ends its live view and tells Studio', async () => {
  await agentWith([navigate('/fixtures/page-b.html')]).agent.generate('Open page B.', { maxSteps: 3, memory: { thread: 'closing', resource: 'ada' } });
  const context = (await browser.getActivePage('closing'))!.context();
  const stream = (await browser.startScreencastIfBrowserActive({ threadId: 'closing' })) as PageScreencast;
  const stopped = next<string>(stream, 'stop');
  let closedCalls = 0;
  browser.onBrowserClosed(() => closedCalls++, 'closing');
  const contextClosed = new Promise<void>((resolve) => context.once('close', () => resolve()));

  await browser.closeThreadSession('closing');
  await contextClosed;
  expect(browser.toolset.sessions.has('thread:closing')).toBe(false);
  expect(browser.hasThreadSession('closing')).toBe(false);
  expect(browser.isBrowserRunning('closing')).toBe(false);
  expect(await stopped).toBe('browser_closed');
  expect(closedCalls).toBe(1);
  expect(browser.getLastBrowserState('closing')).toMatchObject({ tabs: [{ url: server.url('/fixtures/page-b.html') }], closeReason: 'user' });
  // Other threads keep their browsers.
  expect(browser.isBrowserRunning('iso-a')).toBe(true);
});

it('scope "shared" puts every thread in one session', () => {
  const shared = new ToolsetBrowser({ scope: 'shared' });
  expect(shared.getScope()).toBe('shared');
  expect(shared.hasThreadSession('any')).toBe(true);
  expect(browser.getScope()).toBe('thread');
});
