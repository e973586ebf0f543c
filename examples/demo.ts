/**
 * `npm run demo`: drives the browser tools on a bundled local page, the way an agent would,
 * and prints every call with the result the model would read. No network, no API key.
 */
import { BrowserToolset } from '../src/index.js';
import { refOf as ref } from '../test/helpers/refs.js';
import { OFFLINE_ARGS, startServer } from '../test/helpers/server.js';

const server = await startServer();
// Only 127.0.0.1 resolves: the demo cannot reach the internet even if the page asks it to.
const browser = new BrowserToolset({ args: OFFLINE_ARGS });

function show(value: unknown): string {
  const lines: string[] = [];
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (typeof field === 'string' && field.includes('\n')) lines.push(`  ${key}:`, ...field.split('\n').map((l) => `    | ${l}`));
    else lines.push(`  ${key}: ${JSON.stringify(field)}`);
  }
  return lines.join('\n');
}

async function step(tool: keyof BrowserToolset['tools'], input: Record<string, unknown>): Promise<any> {
  console.log(`\n→ ${tool} ${JSON.stringify(input)}`);
  const result = await (browser.tools[tool] as any).execute(input, {});
  console.log(show(result));
  return result;
}

try {
  const page = await step('browser_navigate', { url: server.url('/fixtures/form.html') });
  const snap: string = page.snapshot;
  await step('browser_type', { ref: ref(snap, 'textbox', 'Full name *'), text: 'Ada Lovelace' });
  await step('browser_type', { ref: ref(snap, 'textbox', 'Email *'), text: 'ada@example.com' });
  await step('browser_type', { ref: ref(snap, 'textbox', 'Password *'), text: 'correct horse battery' });
  await step('browser_click', { ref: ref(snap, 'checkbox', 'I accept the terms') });
  await step('browser_click', { ref: 'e999' }); // a wrong ref: a structured error, never a throw
  await step('browser_snapshot', {});
  await step('browser_click', { ref: ref(snap, 'button', 'Create account') });
  console.log(`\nThe local server received: ${JSON.stringify(server.submissions.at(-1)?.fields)}`);
  await step('browser_navigate', { url: server.url('/fixtures/long.html') });
  await step('browser_scroll', { direction: 'down', amount: 'page' });
} finally {
  await browser.close();
  await server.close();
}
