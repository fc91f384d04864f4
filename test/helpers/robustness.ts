import { afterAll, beforeAll, expect } from 'vitest';
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { indexDirFor } from '../../src/indexer/index-location.js';
import { runCli, type CliRun } from './cli.js';
import { createTempTree, SMALL_REPO, type TempTree } from './fixture-tree.js';

/** A V8 stack frame line ("    at fn (file:line:col)"): must never reach a user without --debug. */
export const STACK_FRAME = /^\s+at .+[:(]/m;

/** Asserts a CLI run failed with `code`, printed one `codescout:`/`error:` message matching `message`, and no stack. */
export function expectCleanFailure(run: CliRun, code: number, message: RegExp): void {
  expect(run.code, `stderr: ${run.stderr}`).toBe(code);
  expect(run.stderr).toMatch(message);
  expect(run.stderr).not.toMatch(STACK_FRAME);
  expect(run.stdout).toBe('');
}

/** The index folder of `root` inside `cacheDir`. */
export function indexDirOf(cacheDir: string, root: string): string {
  return indexDirFor(cacheDir, root);
}

/** Copies a whole cache dir, so each test damages its own copy of one index built once. */
export async function copyCache(from: string, to: string): Promise<void> {
  await cp(from, to, { recursive: true });
}

/** Names in a folder matching a pattern. */
export async function filesMatching(dir: string, pattern: RegExp): Promise<string[]> {
  return (await readdir(dir)).filter((n) => pattern.test(n)).map((n) => path.join(dir, n));
}

/** Parses stdout as exactly one JSON document. */
export function parseOneJson(run: CliRun): unknown {
  const lines = run.stdout.trim().split('\n');
  expect(lines, run.stdout).toHaveLength(1);
  return JSON.parse(lines[0]!);
}

/** The search the damage suites compare a repaired index against. */
export const DAMAGE_QUERY = ['search', 'turn an ISO date string into a Date', '-k', '4', '--json'];

/** One small index built once per suite, copied for every test that damages it. */
export interface IndexTemplate {
  readonly tree: TempTree;
  /** The cache dir holding the template index. */
  readonly template: string;
  /** `DAMAGE_QUERY`'s stdout on the healthy index. */
  readonly baselineSearch: string;
  /** A private copy of the template: its cache dir, index folder and catalog path. */
  freshCopy(): Promise<{ cacheDir: string; dir: string; catalog: string }>;
}

/** Indexes SMALL_REPO once with the CLI and records the baseline search. */
export async function buildIndexTemplate(): Promise<IndexTemplate> {
  const tree = await createTempTree(SMALL_REPO);
  const template = tree.cacheDir;
  const built = await runCli(['index', tree.root, '--cache-dir', template, '--json']);
  expect(built.code, built.stderr).toBe(0);
  const search = await runCli([...DAMAGE_QUERY, '--root', tree.root, '--cache-dir', template]);
  expect(search.code, search.stderr).toBe(0);
  let copies = 0;
  return {
    tree,
    template,
    baselineSearch: search.stdout,
    async freshCopy() {
      const cacheDir = path.join(path.dirname(tree.root), `cache-copy-${++copies}`);
      await copyCache(template, cacheDir);
      const dir = indexDirOf(cacheDir, tree.root);
      return { cacheDir, dir, catalog: path.join(dir, 'catalog.sqlite') };
    },
  };
}

/**
 * Registers the suite's hooks: builds the template before its tests and disposes of it after. Read the fields inside
 * tests (they are set once the suite starts).
 */
export function useIndexTemplate(): IndexTemplate {
  let template: IndexTemplate | undefined;
  beforeAll(async () => {
    template = await buildIndexTemplate();
  });
  afterAll(async () => {
    await template?.tree.dispose();
  });
  const get = (): IndexTemplate => {
    if (!template) throw new Error('the index template is built in beforeAll: read it inside a test');
    return template;
  };
  return {
    get tree() { return get().tree; },
    get template() { return get().template; },
    get baselineSearch() { return get().baselineSearch; },
    freshCopy: () => get().freshCopy(),
  };
}
