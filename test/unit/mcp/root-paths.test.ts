import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/index.js';
import { checkGlobs, toRootRelative } from '../../../src/mcp/root-paths.js';

const root = '/work/repo';

describe('toRootRelative', () => {
  it('keeps relative paths, normalises them, and makes absolute paths inside the root relative', () => {
    expect(toRootRelative(root, 'src/a.ts', 'paths')).toBe('src/a.ts');
    expect(toRootRelative(root, './src//b/../a.ts', 'paths')).toBe('src/a.ts');
    expect(toRootRelative(root, '/work/repo/src/a.ts', 'paths')).toBe('src/a.ts');
    expect(toRootRelative(root, '.', 'paths')).toBe('.');
  });

  it('refuses paths outside the root, naming the field', () => {
    expect(() => toRootRelative(root, '../other/a.ts', 'paths')).toThrow(ConfigError);
    expect(() => toRootRelative(root, 'src/../../x', 'paths')).toThrow('paths: "src/../../x" is outside the indexed root /work/repo.');
    expect(() => toRootRelative(root, '/work/repository/a.ts', 'paths')).toThrow('is outside the indexed root');
    expect(() => toRootRelative(root, '  ', 'paths')).toThrow('paths: an empty path was given.');
  });
});

describe('checkGlobs', () => {
  it('passes relative globs through and makes absolute ones inside the root relative', () => {
    expect(checkGlobs(root, undefined, 'include')).toBeUndefined();
    expect(checkGlobs(root, ['src/**', '*.md'], 'include')).toEqual(['src/**', '*.md']);
    expect(checkGlobs(root, ['/work/repo/src/**'], 'include')).toEqual(['src/**']);
  });

  it('refuses globs outside the root', () => {
    expect(() => checkGlobs(root, ['../**'], 'exclude')).toThrow('exclude: the glob "../**" points outside the indexed root /work/repo.');
    expect(() => checkGlobs(root, ['/etc/**'], 'include')).toThrow(ConfigError);
    expect(() => checkGlobs(root, ['src/../../x/**'], 'patterns')).toThrow('patterns: the glob');
  });
});
