// The layer and cycle check run by `npm run deps` (part of `npm test`).
// Layers, lowest first: browser → snapshot and store → loading → session → tools → provider, mcp and cli.
// A module may import its own layer or any layer below it, never one above, and never in a circle.
// Type-only imports count too: a type pulled from a higher layer ties the two layers together all the same.

/** A path pattern for any file inside one of these folders of src/. */
const above = (...folders) => `^src/(${folders.join('|')})/`;

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes load order matter and bundlers (mastra dev) warn about it on every start.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'snapshot-stays-below-session',
      severity: 'error',
      comment: 'The snapshot reads a page; it knows nothing of sessions, tools, the provider or MCP.',
      from: { path: '^src/snapshot/' },
      to: { path: above('session', 'loading', 'tools', 'provider', 'mcp', 'cli') },
    },
    {
      name: 'loading-stays-below-session',
      severity: 'error',
      comment: 'Loading is handed the tab, its traffic and the deadline; it never reaches up into the session or a tool.',
      from: { path: '^src/loading/' },
      to: { path: above('session', 'tools', 'provider', 'mcp', 'cli') },
    },
    {
      name: 'browser-is-the-floor',
      severity: 'error',
      comment: 'Launching and finding Chromium needs nothing from the layers built on top of it.',
      from: { path: '^src/browser/' },
      to: { path: above('snapshot', 'loading', 'session', 'tools', 'provider', 'mcp', 'cli', 'store') },
    },
    {
      name: 'session-stays-below-tools',
      severity: 'error',
      comment: 'Tools are built on the session; the session never depends on a tool.',
      from: { path: '^src/session/' },
      to: { path: above('tools', 'provider', 'mcp', 'cli') },
    },
    {
      name: 'store-stays-below-session',
      severity: 'error',
      comment: 'The store keeps and returns saved state; it knows nothing of sessions or tools.',
      from: { path: '^src/store/' },
      to: { path: above('session', 'loading', 'tools', 'provider', 'mcp', 'cli') },
    },
    {
      name: 'config-stays-below-session',
      severity: 'error',
      comment: 'Every layer reads the configuration, so it may not import a layer that reads it back.',
      from: { path: '^src/config\\.ts$' },
      to: { path: above('session', 'loading', 'tools', 'provider', 'mcp', 'cli') },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
