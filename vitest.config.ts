import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    // Each file drives its own Chromium; two at a time suits a 2-core machine.
    maxWorkers: 3,
    // Files share a worker process instead of re-importing Mastra, Playwright and the MCP SDK each time.
    isolate: false,
    // One retry for a real browser on a shared, noisy 2-core machine; .ci/run names every test that needed it.
    retry: 1,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results.json' },
  },
});
