import { defineConfig } from 'tsup';

export default defineConfig({
  // index: the library; cli: the `mastra-browser-toolset` command (package.json "bin"), which needs no types.
  entry: { index: 'src/index.ts', cli: 'src/cli/index.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  clean: true,
  sourcemap: true,
  target: 'node20',
  // import.meta.url is empty in CommonJS output; the shim makes createRequire(import.meta.url) work in both builds.
  shims: true,
});
