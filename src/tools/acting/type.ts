import type { Keyboard, Locator } from 'playwright-core';
import { z } from 'zod';
import { BrowserToolError, toBrowserToolError } from '../../errors.js';
import { ensureVisible } from '../helpers/preflight.js';
import { defineBrowserTool } from '../defineTool.js';
import { effectsShape, observeAction } from '../helpers/observe.js';
import { refSchema, resolveTarget } from '../helpers/target.js';
import { typeSecret } from '../helpers/typeSecret.js';

const MASK = '••••••';

/** The field's value, and whether it must be masked (a password, or a configured secret field). */
async function readField(locator: Locator, secretSelector: string): Promise<{ value: string; password: boolean }> {
  return locator.evaluate((el, secret) => {
    let masked = el instanceof HTMLInputElement && el.type === 'password';
    try {
      masked ||= !!secret && el.matches(secret);
    } catch {
      // an invalid selector in the config masks nothing
    }
    if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) {
      return { value: el.value, password: masked };
    }
    // An editor's text as the snapshot shows it: paragraphs one line apart.
    const text = (el as HTMLElement).innerText ?? el.textContent ?? '';
    return { value: text.replace(/\n{2,}/g, '\n').replace(/\n+$/, ''), password: masked };
  }, secretSelector);
}

async function ensureEditable(locator: Locator, what: string): Promise<void> {
  let editable: boolean;
  try {
    editable = await locator.isEditable();
  } catch (error) {
    const mapped = toBrowserToolError(error, `type into ${what}`);
    throw mapped.code === 'browser_error' ? new BrowserToolError('not_editable', `${what} is not a text field.`) : mapped;
  }
  if (!editable) {
    const disabled = await locator.isDisabled().catch(() => false);
    throw disabled
      ? new BrowserToolError('element_disabled', `${what} is disabled.`)
      : new BrowserToolError('not_editable', `${what} is read-only.`, { hint: 'This field cannot be changed by typing; look for another control that sets it.' });
  }
}

/** Whether the element is an editable surface (a rich text editor's contenteditable area) rather than a form field. */
function isEditingSurface(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => !(el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) && (el as HTMLElement).isContentEditable);
}

/**
 * Types into an editable surface the way a person does: caret placed (everything selected to replace it, the
 * end to append), then the text entered as input, with a line break pressed as Enter. Editors keep a model of
 * their own (Quill's delta, TinyMCE's content) that follows such input; setting the markup would bypass it.
 */
async function isNumberField(locator: Locator): Promise<boolean> {
  return locator.evaluate((el) => el instanceof HTMLInputElement && el.type === 'number').catch(() => false);
}

async function typeIntoSurface(locator: Locator, keyboard: Keyboard, text: string, replace: boolean, slowly: boolean, timeout: number): Promise<void> {
  await locator.focus({ timeout });
  await locator.evaluate((el, selectAll) => {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(el);
    if (!selectAll) range.collapse(false);
    const selection = el.ownerDocument.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }, replace);
  if (replace && !text) await keyboard.press('Delete');
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    if (i > 0) await keyboard.press('Enter');
    if (!line) continue;
    if (slowly) await keyboard.type(line, { delay: 20 });
    else await keyboard.insertText(line);
  }
}

export const typeTool = defineBrowserTool({
  id: 'browser_type',
  description:
    'Type into a text field or an editable surface (a rich text editor, shown as a multiline textbox) by ref, replacing its text (clear=false appends at the end). A line break in the text is typed as Enter. submit=true presses Enter afterwards. Returns the field value (passwords masked) and what changed. For a password or one-time code, pass secret (a name the snapshot lists) instead of text: you never see its value.',
  input: z.object({
    ref: refSchema,
    text: z.string().optional().describe('The text to enter.'),
    secret: z.string().optional().describe('Instead of text: the name of a secret to type (a password, a one-time code), as listed in the snapshot.'),
    clear: z.boolean().optional().describe('Default true.'),
    submit: z.boolean().optional().describe('Press Enter after typing.'),
    slowly: z
      .boolean()
      .optional()
      .describe('Type key by key, for fields that react to each key (autocomplete).'),
  }),
  output: {
    ref: z.string(),
    typedInto: z.string().describe('Role and name of the field.'),
    // Not named `value`: Mastra hands a result with a top-level `value` to the model as that value alone.
    fieldValue: z.string().describe('The value of the field after typing (masked for password fields).'),
    asTyped: z.boolean().describe('True when the field holds exactly the text sent.'),
    submitted: z.boolean(),
    ...effectsShape,
  },
  // Key by key takes about 40 ms a character on top of the usual time.
  budget: ({ text, slowly }, config) => config.timeout + (slowly ? (text ?? '').length * 40 : 0),
  validate: ({ text, secret }) => {
    if ((text === undefined) === (secret === undefined)) throw new BrowserToolError('invalid_input', 'Give either text or secret (the name of a secret), not both and not neither.');
  },
  async handle({ ref, text: given, secret, clear, submit, slowly }, call) {
    if (secret !== undefined) return typeSecret(call, { ref, secret, submit, slowly });
    const text = given ?? '';
    const target = await resolveTarget(call, ref, 'type into');
    const { locator, label } = target;
    await ensureVisible(locator, label);
    await ensureEditable(locator, label);
    const timeout = call.deadline.forStep();
    const replace = clear ?? true;
    let typed = { value: '', password: false };

    const editable = await isEditingSurface(locator);

    const effects = await observeAction(
      call,
      async () => {
        if (editable) {
          await typeIntoSurface(locator, call.tab.page.keyboard, text, replace, !!slowly, timeout);
        } else if (slowly || (replace && (await isNumberField(locator)))) {
          // A number field (a date picker's year) often acts on its keys, not on its value: typed as a person does.
          if (replace) await locator.fill('', { timeout });
          await locator.pressSequentially(text, { delay: slowly ? 20 : 0, timeout });
        } else if (replace) {
          await locator.fill(text, { timeout });
        } else {
          await locator.focus({ timeout });
          await locator.evaluate((el) => {
            if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) {
              const end = el.value.length;
              try {
                el.setSelectionRange(end, end);
              } catch {
                // email and number inputs have no selection API; focus already put the caret at the end
              }
            }
          });
          await call.tab.page.keyboard.insertText(text);
        }
        typed = await readField(locator, call.config.secretSelector);
        if (submit) await locator.press('Enter', { timeout });
      },
      { checkValidation: !!submit },
    );

    // An editor may keep a space as a no-break space, or a line as a paragraph: compared with whitespace collapsed.
    const flat = (value: string) => (editable ? value.replace(/\s+/g, ' ').trim() : value);
    const asTyped = flat(typed.value) === flat(text);
    if (!submit && !asTyped && replace) {
      call.notices.push(`The field holds ${typed.password ? 'a different value' : JSON.stringify(typed.value)} rather than the text sent: the page may limit or format what it accepts.`);
    }
    return { ref: target.ref, typedInto: label, fieldValue: typed.password ? MASK : typed.value, asTyped, submitted: !!submit, ...effects };
  },
});
