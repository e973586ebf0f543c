import { z } from 'zod';
import { defineBrowserTool } from '../defineTool.js';

const RESULT_LIMIT = 20_000;

export const evaluateTool = defineBrowserTool({
  id: 'browser_evaluate',
  description:
    'Run JavaScript in the page and return its result as JSON. Give an expression (document.title) or a function body with return. Use only when no other tool can do the job.',
  input: z.object({ script: z.string().min(1).describe('An expression, or statements ending in return.') }),
  output: { result: z.string().describe('The result as JSON (cut at 20,000 characters).') },
  async handle({ script }, { tab: { page } }) {
    const asExpression = `(async () => (${script}\n))()`;
    const asBody = `(async () => { ${script}\n })()`;
    let result: unknown;
    try {
      new Function(asExpression); // syntax check only, never called
      result = await page.evaluate(asExpression);
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      result = await page.evaluate(asBody);
    }
    const json = JSON.stringify(result) ?? 'undefined';
    return { result: json.length > RESULT_LIMIT ? `${json.slice(0, RESULT_LIMIT)}…` : json };
  },
});
