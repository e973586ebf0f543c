// The layer and cycle check run by `npm run deps` (part of `npm test`).
// Layers, lowest first: browser → snapshot, store and files → loading → session → tools → provider, mcp and cli.
// A module may import its own layer or any layer below it, never one above, and never in a circle.
// Type-only imports count too: a type pulled from a higher layer ties the two layers together all the same.

/** A rule: files matching `from` never import a file in one of `folders` (folders of src/). */
const stayBelow = (name, from, folders, comment) => ({
  name,
  severity: 'error',
  comment,
  from: { path: from },
  to: { path: `^src/(${folders.join('|')})/` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import cycle makes load order matter and bundlers (mastra dev) warn about it on every start.',
      from: {},
      to: { circular: true },
    },
    stayBelow('snapshot-stays-below-session', '^src/snapshot/', ['session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'The snapshot reads a page; it knows nothing of sessions, tools, the provider or MCP.'),
    stayBelow('loading-stays-below-session', '^src/loading/', ['session', 'tools', 'provider', 'mcp', 'cli'],
      'Loading is handed the tab, its traffic and the deadline; it never reaches up into the session or a tool.'),
    stayBelow('browser-is-the-floor', '^src/browser/', ['snapshot', 'loading', 'session', 'tools', 'provider', 'mcp', 'cli', 'store'],
      'Launching and finding Chromium needs nothing from the layers built on top of it.'),
    stayBelow('session-stays-below-tools', '^src/session/', ['tools', 'provider', 'mcp', 'cli'],
      'Tools are built on the session; the session never depends on a tool.'),
    stayBelow('files-stay-below-session', '^src/files/', ['session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'Reading a downloaded file needs its path and the call\'s time, never a session or a tool.'),
    stayBelow('store-stays-below-session', '^src/store/', ['session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'The store keeps and returns saved state; it knows nothing of sessions or tools.'),
    stayBelow('config-stays-below-session', '^src/config\\.ts$', ['session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'Every layer reads the configuration, so it may not import a layer that reads it back.'),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
