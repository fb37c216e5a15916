import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// One vitest run over every workspace package. Packages resolve each other's TypeScript sources
// through the `@skillport/source` export condition, so unit tests need no build of their dependencies.
const source = '@skillport/source';

export default defineConfig({
  resolve: { conditions: [source, ...defaultClientConditions] },
  ssr: { resolve: { conditions: [source, ...defaultServerConditions] } },
  test: {
    include: [
      'packages/*/test/**/*.test.ts',
      'apps/*/test/**/*.test.ts',
      'spec/test/**/*.test.ts',
      'examples/test/**/*.test.ts',
      'scripts/test/**/*.test.ts',
    ],
    reporters: ['default', './scripts/summary-reporter.ts'],
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});
