import { createStep, createWorkflow } from '@mastra/core/workflows';
import { expect, it } from 'vitest';
import { z } from 'zod';
import { refOf, useServerAndBrowser } from './helpers/toolset.js';

const env = useServerAndBrowser();

// The tools are ordinary Mastra tools, so a workflow can use them as steps, without an agent or a model.
it('browser tools run as Mastra workflow steps: navigate, then type into a field found in its snapshot', async () => {
  const browser = env.browser;
  const navigate = createStep(browser.tools.browser_navigate);
  const fillName = createStep({
    id: 'fill-name',
    inputSchema: z.any(),
    outputSchema: z.any(),
    execute: async ({ inputData }) => {
      const snapshot: string = inputData.snapshot;
      const type = browser.tools.browser_type.execute as (input: unknown, context: unknown) => Promise<any>;
      return type({ ref: refOf(snapshot, 'searchbox', 'Search'), text: 'kettle' }, {});
    },
  });
  const workflow = createWorkflow({ id: 'browse', inputSchema: z.object({ url: z.string() }), outputSchema: z.any() })
    .then(navigate)
    .then(fillName)
    .commit();

  const run = await workflow.createRun();
  const result = await run.start({ inputData: { url: env.server.url('/fixtures/form.html') } });
  expect(result.status).toBe('success');
  const steps = (result as any).steps;
  expect(steps.browser_navigate.output).toMatchObject({ ok: true, title: 'Create your account', status: 200 });
  expect((result as any).result).toMatchObject({ ok: true, fieldValue: 'kettle' });
});
