import { defineConfig } from 'vitest/config';

// Native modules (onnxruntime, hnswlib, tree-sitter, better-sqlite3) are safest in forked workers.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 180_000,
    globalSetup: ['test/global-setup.ts'],
  },
});
