import { describe, expect, it } from 'vitest';
import { blankJsdoc } from '../../../scripts/eval/blank-jsdoc.js';
import { compileCorpusFilter, globToRegExp, literalPrefix } from '../../../scripts/eval/glob.js';

const matches = (glob: string, path: string) => globToRegExp(glob).test(path);

describe('globToRegExp', () => {
  it('** matches any number of directories, also none', () => {
    expect(matches('src/**/*.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/**/*.ts', 'src/x/y/a.ts')).toBe(true);
    expect(matches('**/*.d.ts', 'types.d.ts')).toBe(true);
    expect(matches('**/*.d.ts', 'a/b/types.d.ts')).toBe(true);
    expect(matches('**/demo/**', 'packages/core/demo/x.ts')).toBe(true);
    expect(matches('**/demo/**', 'packages/core/demos/x.ts')).toBe(false);
    expect(matches('src/compat/**', 'src/compat/a/b.ts')).toBe(true);
    expect(matches('src/compat/**', 'src/compatible.ts')).toBe(false);
  });

  it('* and ? stay within one segment', () => {
    expect(matches('packages/*/src/**/*.ts', 'packages/core/src/a.ts')).toBe(true);
    expect(matches('packages/*/src/**/*.ts', 'packages/a/b/src/a.ts')).toBe(false);
    expect(matches('src/*.ts', 'src/a/b.ts')).toBe(false);
    expect(matches('src/?.ts', 'src/a.ts')).toBe(true);
    expect(matches('src/?.ts', 'src/ab.ts')).toBe(false);
    expect(matches('*.ts', '.hidden.ts')).toBe(true);
  });

  it('treats everything else literally: dots, braces, brackets, plus', () => {
    expect(matches('src/a.ts', 'src/aXts')).toBe(false);
    expect(matches('src/{a,b}.ts', 'src/a.ts')).toBe(false);
    expect(matches('src/{a,b}.ts', 'src/{a,b}.ts')).toBe(true);
    expect(matches('src/[ab].ts', 'src/[ab].ts')).toBe(true);
    expect(matches('src/a+.ts', 'src/a+.ts')).toBe(true);
  });

  it('is anchored at both ends', () => {
    expect(matches('src/**/*.ts', 'lib/src/a.ts')).toBe(false);
    expect(matches('src/**/*.ts', 'src/a.tsx')).toBe(false);
  });
});

describe('compileCorpusFilter', () => {
  it('keeps a path matching an include and no exclude', () => {
    const keep = compileCorpusFilter(['src/**/*.ts'], ['src/compat/**', '**/*.spec.ts']);
    expect(['src/a.ts', 'src/compat/b.ts', 'src/c.spec.ts', 'lib/d.ts'].filter(keep)).toEqual(['src/a.ts']);
  });
});

describe('literalPrefix', () => {
  it('is the directories before the first wildcard segment', () => {
    expect(literalPrefix('packages/*/src/**/*.ts')).toBe('packages');
    expect(literalPrefix('packages/core/**/*.ts')).toBe('packages/core');
    expect(literalPrefix('src/a.ts')).toBe('src');
    expect(literalPrefix('**/*.ts')).toBe('');
    expect(literalPrefix('a.ts')).toBe('');
  });
});

describe('blankJsdoc', () => {
  it('blanks every character of a JSDoc comment except newlines', () => {
    const src = 'const a = 1;\n/**\n * Adds.\n */\nexport function add() {}\n';
    expect(blankJsdoc(src)).toBe(`const a = 1;\n${' '.repeat(3)}\n${' '.repeat(8)}\n${' '.repeat(3)}\nexport function add() {}\n`);
  });

  it('keeps line count and length, and leaves /* */, /**/ and // comments alone', () => {
    const src = '/* plain */ /**/ x; // line\n/** one */ y; /** two\n */ z;\n';
    const out = blankJsdoc(src);
    expect(out).toBe('/* plain */ /**/ x; // line\n           y;        \n    z;\n');
    expect(out.length).toBe(src.length);
    expect(out.split('\n').length).toBe(src.split('\n').length);
  });

  it('ends a comment at the first */', () => {
    expect(blankJsdoc('/** a */ b /** c */')).toBe(`${' '.repeat(8)} b ${' '.repeat(8)}`);
  });
});
