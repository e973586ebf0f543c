/**
 * browser_type { ref, secret }: types a configured secret (secrets/vault.ts) into a field, on the origins it
 * allows only. The value goes from the vault to the field and nowhere else: the field is marked so snapshots,
 * diffs and screenshots mask it, the Playwright calls that carry it are not recorded in a trace, and the trace
 * stops recording DOM snapshots and network first (session/trace.ts), which would carry it afterwards.
 */
import type { Frame, Locator, Page } from 'playwright-core';
import { SECRET_MARK } from '../../config.js';
import { BrowserToolError, toBrowserToolError } from '../../errors.js';
import { recordWithoutPageContent } from '../../session/trace.js';
import type { CallContext } from '../defineTool.js';
import { observeAction, type Effects } from './observe.js';
import { ensureVisible } from './preflight.js';
import { resolveTarget } from './target.js';

/** What the result says in place of the field's value. */
export const SECRET_MASK = '••••••';

/** The frame's URL, or its creator's for a frame with none of its own (about:blank, srcdoc): whose origin it has. */
function originUrl(frame: Frame): string {
  for (let f: Frame | null = frame; f; f = f.parentFrame()) if (!/^about:/.test(f.url())) return f.url();
  return frame.url();
}

/**
 * Runs Playwright calls as Playwright runs its own: left out of a trace, parameters and results included. Without
 * that hook (another Playwright) a recording trace would keep the value, so the secret is refused instead.
 */
async function unrecorded<T>(page: Page, tracing: boolean, work: () => Promise<T>): Promise<T> {
  const internal = (page as unknown as { _wrapApiCall?: (fn: () => Promise<T>, options: { internal: boolean }) => Promise<T> })._wrapApiCall;
  if (typeof internal === 'function') return internal.call(page, work, { internal: true });
  if (tracing) throw new BrowserToolError('browser_error', 'A secret cannot be typed while this session records a trace: this Playwright version offers no way to keep it out of the trace.', { hint: 'Tell the user; whoever runs the browser must turn the trace off to type secrets.', retryable: false });
  return work();
}

async function ensureSecretField(locator: Locator, what: string): Promise<void> {
  let kind: 'field' | 'other' | 'readonly';
  try {
    kind = await locator.evaluate((el) => {
      if (!(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement)) return 'other';
      if (el instanceof HTMLInputElement && ['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'hidden', 'image', 'range', 'color'].includes(el.type)) return 'other';
      return el.readOnly || el.disabled ? 'readonly' : 'field';
    });
  } catch (error) {
    throw toBrowserToolError(error, `type a secret into ${what}`);
  }
  if (kind === 'other') throw new BrowserToolError('not_editable', `${what} is not a text or password field: a secret is typed only into one.`, { hint: 'Pick the textbox of the snapshot the secret belongs in (the password or code field).' });
  if (kind === 'readonly') throw new BrowserToolError('not_editable', `${what} is read-only or disabled.`, { hint: 'A secret is typed only into a field that takes input; complete the steps that enable it first.' });
}

export async function typeSecret(call: CallContext, input: { ref: string; secret: string; submit?: boolean; slowly?: boolean }): Promise<{ ref: string; typedInto: string; fieldValue: string; asTyped: boolean; submitted: boolean } & Effects> {
  const vault = call.config.secrets;
  if (!vault) {
    throw new BrowserToolError('invalid_input', 'No secrets are configured for this browser.', { hint: 'Type the text with "text" instead, or ask the user: whoever runs the browser configures secrets.' });
  }
  const target = await resolveTarget(call, input.ref, 'type a secret into');
  const { locator, label } = target;
  const handle = await locator.elementHandle({ timeout: call.deadline.forStep() });
  const frame = handle && (await handle.ownerFrame());
  await handle?.dispose();
  if (!frame) throw new BrowserToolError('stale_ref', `type a secret into ${input.ref}: the element left the page.`);
  // Checked against the frame the field is in, as the browser knows it: a page cannot say it is another origin.
  const secret = vault.check(input.secret, originUrl(frame));
  await ensureVisible(locator, label);
  await ensureSecretField(locator, label);

  const tracing = call.config.trace;
  const context = call.tab.page.context();
  if (tracing) {
    try {
      await recordWithoutPageContent(context, tracing, call.session.key);
    } catch (error) {
      throw new BrowserToolError('browser_error', `The secret was not typed: the trace could not stop recording the page's content (${toBrowserToolError(error).message}).`, { hint: 'Retry once; if it fails again, tell the user.', retryable: true });
    }
  }
  const timeout = call.deadline.forStep();
  // Marked before the value arrives: every capture from now on masks the field.
  await locator.evaluate((el, mark) => el.setAttribute(mark, ''), SECRET_MARK, { timeout });
  let held = true;
  const effects = await observeAction(
    call,
    async () => {
      const value = await vault.reveal(secret.name);
      held = await unrecorded(call.tab.page, !!tracing, async () => {
        // A field of one character per box (a code split into digits) moves on as each key lands: typed key by key.
        const maxLength = await locator.evaluate((el) => (el as HTMLInputElement).maxLength ?? -1);
        if (input.slowly || (maxLength > 0 && maxLength < value.length)) {
          await locator.fill('', { timeout });
          await locator.pressSequentially(value, { delay: input.slowly ? 20 : 0, timeout });
          return maxLength > 0 && maxLength < value.length ? true : (await locator.inputValue({ timeout })) === value;
        }
        await locator.fill(value, { timeout });
        return (await locator.inputValue({ timeout })) === value;
      });
      if (input.submit) await locator.press('Enter', { timeout });
    },
    { checkValidation: !!input.submit },
  );
  if (!held && !input.submit) call.notices.push(`The field holds something other than the secret "${secret.name}": the page may limit or format what it accepts.`);
  return { ref: target.ref, typedInto: label, fieldValue: SECRET_MASK, asTyped: held, submitted: !!input.submit, ...effects };
}

