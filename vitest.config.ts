import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Each file drives its own Chromium; three at a time keep a 2-core machine busy without starving it.
    maxWorkers: 3,
    // Files share a worker process instead of re-importing Mastra, Playwright and the MCP SDK each time.
    isolate: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
