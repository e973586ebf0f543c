/**
 * `npm run demo`: drives the browser tools on a bundled local page, the way an agent would,
 * and prints every call with the result the model would read. No network, no API key.
 * When a step fails it prints the result it got and what to do, closes the browser and exits 1.
 */
import { BrowserToolset } from '../src/index.js';
import { startSite } from './site.js';

const site = await startSite();
// Only 127.0.0.1 resolves: the demo cannot reach the internet even if the page asks it to.
const browser = new BrowserToolset({ args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });

/** A step that did not go as planned: the demo stops, says why, and cleans up. */
class DemoStop extends Error {
  constructor(
    message: string,
    readonly advice: string,
  ) {
    super(message);
  }
}

function show(value: unknown): string {
  const lines: string[] = [];
  for (const [key, field] of Object.entries(value as Record<string, unknown>)) {
    if (typeof field === 'string' && field.includes('\n')) lines.push(`  ${key}:`, ...field.split('\n').map((l) => `    | ${l}`));
    else lines.push(`  ${key}: ${JSON.stringify(field)}`);
  }
  return lines.join('\n');
}

/** Runs one tool as an agent would. `expectError` marks the deliberate mistakes the demo shows off. */
async function step(tool: keyof BrowserToolset['tools'], input: Record<string, unknown>, expectError?: string): Promise<any> {
  console.log(`\n→ ${tool} ${JSON.stringify(input)}`);
  const result = await (browser.tools[tool] as any).execute(input, {});
  console.log(show(result));
  if (expectError ? result.error?.code !== expectError : !result.ok) {
    const code: string = result.error?.code ?? 'unexpected_success';
    throw new DemoStop(`${tool} gave ${code}, where the demo expected ${expectError ?? 'success'}.`, result.error?.hint ?? 'Run `npm test` to see what broke.');
  }
  return result;
}

/** The ref on the snapshot line `<ref> <role> "<name>"`, as the model would read it. */
function ref(snapshot: string, role: string, name: string): string {
  for (const line of snapshot.split('\n')) {
    const match = /^\s*((?:f\d+)?e\d+) (\S+) ("(?:[^"\\]|\\.)*")/.exec(line);
    if (match && match[2] === role && JSON.parse(match[3]!) === name) return match[1]!;
  }
  throw new DemoStop(`The snapshot has no ${role} "${name}".`, 'The bundled page did not render as expected; run `npm test` to see what broke.');
}

let exitCode = 0;
try {
  const page = await step('browser_navigate', { url: site.url('/signup') });
  const info = browser.browserInfo;
  console.log(`\n(browser: ${info?.source} ${info?.executablePath ?? info?.endpoint ?? ''}${info?.version ? `, Chromium ${info.version}` : ''})`);
  const snap: string = page.snapshot;
  await step('browser_type', { ref: ref(snap, 'textbox', 'Full name *'), text: 'Ada Lovelace' });
  await step('browser_type', { ref: ref(snap, 'textbox', 'Email *'), text: 'ada@example.com' });
  await step('browser_type', { ref: ref(snap, 'textbox', 'Password *'), text: 'correct horse battery' });
  await step('browser_click', { ref: ref(snap, 'checkbox', 'I accept the terms') });
  await step('browser_click', { ref: 'e999' }, 'element_not_found'); // a wrong ref: a structured error, never a throw
  await step('browser_snapshot', {});
  await step('browser_click', { ref: ref(snap, 'button', 'Create account') });
  console.log(`\nThe local server received: ${JSON.stringify(site.submissions.at(-1))}`);
  await step('browser_navigate', { url: site.url('/article') });
  await step('browser_scroll', { direction: 'down', amount: 'page' });
} catch (error) {
  exitCode = 1;
  if (error instanceof DemoStop) console.error(`\nThe demo stopped: ${error.message}\nWhat to do: ${error.advice}`);
  else console.error(`\nThe demo stopped on an unexpected error: ${error instanceof Error ? error.message : String(error)}`);
} finally {
  await browser.close();
  await site.close();
}
process.exit(exitCode);
