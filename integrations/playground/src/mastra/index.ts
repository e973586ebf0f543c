import { Mastra } from '@mastra/core/mastra';
import { LibSQLStore } from '@mastra/libsql';
import { webAgent } from './agent.js';
import { fillFieldWorkflow } from './workflow.js';

export const mastra = new Mastra({
  agents: { webAgent },
  workflows: { fillFieldWorkflow },
  // Workflow runs are kept here; in memory, so a restart starts clean. Use `file:./mastra.db` to keep them.
  storage: new LibSQLStore({ id: 'playground-storage', url: ':memory:' }),
});
