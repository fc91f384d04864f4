import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPathFilter } from '../../../src/discover/path-filter.js';

const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) rmSync(r, { recursive: true, force: true });
});
const root = (): string => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'codescout-reinclude-'));
  roots.push(dir);
  return dir;
};

describe('default-ignored folders (issue 15)', () => {
  it('an include glob that names one brings it back, and nothing else', () => {
    const r = root();
    const plain = createPathFilter(r);
    expect(plain.isIgnored('build', true)).toBe(true);
    expect(plain.isIgnored('packages/app/dist', true)).toBe(true);

    const filter = createPathFilter(r, { include: ['build/**', 'packages/app/dist/**/*.js'] });
    expect(filter.isIgnored('build', true)).toBe(false);
    expect(filter.isIgnored('build/gen.ts', false)).toBe(false);
    expect(filter.isIgnored('packages/app/dist', true)).toBe(false);
    expect(filter.isIgnored('packages/app/dist/index.js', false)).toBe(false);
    // Only the folders the globs name: other default-ignored folders stay out, also inside a re-included one.
    expect(filter.isIgnored('dist', true)).toBe(true);
    expect(filter.isIgnored('node_modules', true)).toBe(true);
    expect(filter.isIgnored('build/node_modules', true)).toBe(true);
  });

  it('never brings back version control or index folders', () => {
    const filter = createPathFilter(root(), { include: ['.git/**', 'index-cache/**'] });
    expect(filter.isIgnored('.git', true)).toBe(true);
    expect(filter.isIgnored('index-cache', true)).toBe(true);
  });
});
