import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// Tests (global setup, workers and the CLI children they start) keep the model inside the repository's ignored
// index-cache/, where .ci/run's `codescout model fetch` puts it, so no run depends on or fills the user cache.
process.env.CODESCOUT_MODELS_DIR ??= path.join(path.dirname(fileURLToPath(import.meta.url)), 'index-cache', 'models');

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
