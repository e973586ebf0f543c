/**
 * One multi-step task done two ways by a scripted model: signing up on test/fixtures/form.html (three fields, a
 * checkbox, the button), reading back the referral code the form shows and what the page says once the form is
 * sent. Call by call, the model reads every result and picks refs out of the text; in Code Mode it writes one
 * program (Mastra's `execute_typescript`) that finds refs by role and name in each result's `elements` and returns
 * only what was asked. test/code-mode.test.ts checks the Code Mode run; bench/code-mode.ts counts both.
 */
import { refOf } from './refs.js';
import type { Decision, ToolResultSeen } from './scriptedModel.js';

export const SIGN_UP = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse' };

/** The program a model writes for the task: TypeScript, as Code Mode asks for. */
export function signUpProgram(url: string): string {
  return `const page = await external_browser_navigate({ url: ${JSON.stringify(url)} });
if (!page.ok) throw new Error(page.error.message);
const refOf = (role: string, name: string): string => {
  const found = page.elements?.find((element) => element.role === role && element.name === name);
  if (!found) throw new Error(\`no \${role} "\${name}" on the page\`);
  return found.ref;
};
const fields: Array<[string, string]> = [['Full name *', ${JSON.stringify(SIGN_UP.name)}], ['Email *', ${JSON.stringify(SIGN_UP.email)}], ['Password *', ${JSON.stringify(SIGN_UP.password)}]];
for (const [label, text] of fields) {
  const typed = await external_browser_type({ ref: refOf('textbox', label), text });
  if (!typed.ok) throw new Error(typed.error.message);
}
const terms = await external_browser_check({ ref: refOf('checkbox', 'I accept the terms'), checked: true });
if (!terms.ok) throw new Error(terms.error.message);
const referral = page.elements?.find((element) => element.name === 'Referral code')?.value;
const sent = await external_browser_click({ ref: refOf('button', 'Create account') });
if (!sent.ok) throw new Error(sent.error.message);
const heading = /^# (.*)$/m.exec(sent.snapshot ?? '')?.[1];
return { referral, heading, address: sent.url };`;
}

/** The answer the model gives from what the program returned (or from the last page, call by call). */
export function answer(referral: string | undefined, heading: string | undefined): string {
  return `Signed up. The referral code was ${referral}; the page now says "${heading}".`;
}

/** Call by call: the model reads each result's text and picks refs out of it, as in test/agent.test.ts. */
export function callByCall(url: string) {
  let page = '';
  return (results: ToolResultSeen[], turn: number): Decision => {
    const last = results.at(-1);
    switch (turn) {
      case 0:
        return { tools: [{ name: 'browser_navigate', input: { url } }] };
      case 1:
        page = last!.output;
        return {
          tools: [
            { name: 'browser_type', input: { ref: refOf(page, 'textbox', 'Full name *'), text: SIGN_UP.name } },
            { name: 'browser_type', input: { ref: refOf(page, 'textbox', 'Email *'), text: SIGN_UP.email } },
            { name: 'browser_type', input: { ref: refOf(page, 'textbox', 'Password *'), text: SIGN_UP.password } },
            { name: 'browser_check', input: { ref: refOf(page, 'checkbox', 'I accept the terms'), checked: true } },
          ],
        };
      case 2:
        return { tools: [{ name: 'browser_click', input: { ref: refOf(page, 'button', 'Create account') } }] };
      default: {
        const referral = /textbox "Referral code" value="([^"]*)"/.exec(page)?.[1];
        return { text: answer(referral, /^# (.*)$/m.exec(String(last!.output))?.[1]) };
      }
    }
  };
}

/** In Code Mode: one program, then the answer from what it returned. */
export function inCodeMode(url: string, toolId: string) {
  return (results: ToolResultSeen[], turn: number): Decision => {
    if (turn === 0) return { tools: [{ name: toolId, input: { code: signUpProgram(url) } }] };
    const output = results.at(-1)!.output as { success: boolean; result?: { referral?: string; heading?: string }; error?: { message: string } };
    if (!output.success) return { text: `The program failed: ${output.error?.message}` };
    return { text: answer(output.result?.referral, output.result?.heading) };
  };
}
