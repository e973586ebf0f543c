/**
 * Serves the playground's Mastra instance (integrations/playground) the way `mastra dev` does: its generated
 * entry calls @mastra/deployer's createNodeServer(mastra, ...) on the bundled project. Here the project runs from
 * source through tsx, without the bundling step. PORT chooses the port.
 */
import { createNodeServer } from '@mastra/deployer/server';
import { mastra } from '../../integrations/playground/src/mastra/index.js';

await createNodeServer(mastra, { tools: {}, isDev: true });
