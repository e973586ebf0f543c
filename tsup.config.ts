import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node20',
  // import.meta.url is empty in CommonJS output; the shim makes createRequire(import.meta.url) work in both builds.
  shims: true,
});
