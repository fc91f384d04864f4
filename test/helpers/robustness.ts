import { expect } from 'vitest';
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { indexDirFor } from '../../src/indexer/index-location.js';
import type { CliRun } from './cli.js';

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
