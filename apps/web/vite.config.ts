import { defaultClientConditions, defineConfig } from 'vite';

// Static build of the catalogue: relative asset URLs (`base: './'`) so the page works wherever the
// server is mounted (behind a proxy prefix too); hashed file names under assets/ so the server can
// cache them for a year. Workspace packages are compiled from their TypeScript sources.
export default defineConfig({
  base: './',
  resolve: { conditions: ['@skillport/source', ...defaultClientConditions] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
});
