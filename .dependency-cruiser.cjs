// The layer and cycle check run by `npm run deps` (part of `npm test`).
// Layers, lowest first: the small shared helpers at the root of src/ (errors, deadline, stages, within, inPage,
// browserSettings) → browser → snapshot, store and files → loading → session → tools → the surfaces (provider,
// mcp, cli, toolset.ts, index.ts). config.ts reads the store's defaults and sits beside it.
// A module may import its own layer or any layer below it, never one above, and never in a circle. loading/ and
// snapshot/ are entered through their index.ts only. Type-only imports count too: a type pulled from a higher layer
// ties the two layers together all the same.

/** Files at the root of src/ that every layer uses: they import nothing of the layers. */
const ROOT_HELPERS = '^src/(errors|deadline|stages|within|inPage|browserSettings)\\.ts$';
/** The top: what the package exports and the toolset the surfaces are built on. */
const TOP = '^src/(index|toolset)\\.ts$';
/** The folders of tools/ that hold tools, one file per tool. */
const TOOL_GROUPS = '^src/tools/(reading|acting|navigation|files|people)/';

/** A rule: files matching `from` never import a file in one of `folders` (folders of src/), nor the top. */
const stayBelow = (name, from, folders, comment) => ({
  name,
  severity: 'error',
  comment,
  from: { path: from },
  to: { path: [`^src/(${folders.join('|')})/`, TOP] },
});

/** A rule: files outside `folder` import it only through its index.ts. */
const throughIndex = (name, folder, comment) => ({
  name,
  severity: 'error',
  comment,
  from: { pathNot: `^src/${folder}/` },
  to: { path: `^src/${folder}/`, pathNot: `^src/${folder}/index\\.ts$` },
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
    {
      name: 'root-helpers-are-the-floor',
      severity: 'error',
      comment: 'Errors, deadlines, stage timings and the like are used by every layer, so they may use none of them.',
      from: { path: ROOT_HELPERS },
      to: { path: ['^src/[^/]+/', '^src/(config|index|toolset)\\.ts$'] },
    },
    stayBelow('browser-is-the-floor', '^src/browser/', ['snapshot', 'loading', 'session', 'tools', 'provider', 'mcp', 'cli', 'store'],
      'Launching and finding Chromium needs nothing from the layers built on top of it.'),
    stayBelow('snapshot-stays-below-session', '^src/snapshot/', ['session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'The snapshot reads a page; it knows nothing of sessions, tools, the provider or MCP.'),
    stayBelow('files-stay-below-session', '^src/files/', ['session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'Reading a downloaded file needs its path and the call\'s time, never a session or a tool.'),
    stayBelow('store-stays-below-session', '^src/store/', ['session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'The store keeps and returns saved state; it knows nothing of sessions or tools.'),
    stayBelow('secrets-stay-below-session', '^src/secrets/', ['snapshot', 'store', 'session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'The vault keeps secrets and checks origins; the layers that type and show them import it, never the reverse.'),
    stayBelow('config-stays-below-session', '^src/config\\.ts$', ['session', 'loading', 'tools', 'provider', 'mcp', 'cli'],
      'Every layer reads the configuration, so it may not import a layer that reads it back.'),
    stayBelow('loading-stays-below-session', '^src/loading/', ['session', 'tools', 'provider', 'mcp', 'cli'],
      'Loading is handed the tab, its traffic and the deadline; it never reaches up into the session or a tool.'),
    stayBelow('session-stays-below-tools', '^src/session/', ['tools', 'provider', 'mcp', 'cli'],
      'Tools are built on the session; the session never depends on a tool.'),
    stayBelow('tools-stay-below-the-surfaces', '^src/tools/', ['provider', 'mcp', 'cli'],
      'The provider, the MCP server and the command line are built on the tools, never the other way round.'),
    {
      name: 'a-tool-imports-no-other-tool',
      severity: 'error',
      comment: 'What two tools share is a helper in tools/helpers/; only tools/index.ts lists the tools.',
      from: { path: '^src/tools/', pathNot: '^src/tools/index\\.ts$' },
      to: { path: TOOL_GROUPS },
    },
    throughIndex('loading-through-its-index', 'loading',
      'loading/index.ts says what the load policy offers; the rest of loading/ may change without its callers knowing.'),
    throughIndex('snapshot-through-its-index', 'snapshot',
      'snapshot/index.ts says what the snapshot offers; the rest of snapshot/ may change without its callers knowing.'),
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules' },
  },
};
