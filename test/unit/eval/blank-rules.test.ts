import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyBlankRule, resolveBlankRule } from '../../../scripts/eval/blank-rules.js';
import { prepareCorpus } from '../../../scripts/eval/corpus.js';
import { parseDataset } from '../../../scripts/eval/dataset.js';
import { blankGoDocComments } from '../../../scripts/eval/go-doc-comments.js';
import { blankPythonDocstrings } from '../../../scripts/eval/python-docstrings.js';

/** `text` with the given substrings blanked (every char but newline to a space): what a rule should produce. */
const blanked = (text: string, ...parts: string[]): string =>
  parts.reduce((out, p) => {
    expect(out.includes(p)).toBe(true);
    return out.replace(p, p.replace(/[^\n]/g, ' '));
  }, text);

/** Same length and newlines at the same offsets (UTF-16 units: an emoji in a docstring becomes two spaces). */
const sameShape = (a: string, b: string): void => {
  const newlines = (s: string): number[] => s.split('').flatMap((c, i) => (c === '\n' ? [i] : []));
  expect(b.length).toBe(a.length);
  expect(newlines(b)).toEqual(newlines(a));
};

describe('python-docstrings', () => {
  it('blanks module, class, method and nested function docstrings, quotes and prefixes included', () => {
    const src = [
      '"""Module doc."""',
      'import os',
      '',
      '@decorator',
      'def top(a):',
      '    r\'\'\'Top doc, raw.',
      '',
      '    :param a: thing',
      '    \'\'\'',
      '    def inner():',
      '        "inner doc"',
      '    return a',
      '',
      'class Thing(Base):',
      '    # a comment before the docstring',
      '    """Thing doc."""',
      '',
      '    def method(self):',
      '        """Method doc: ""quoted"" text."""',
      '        x = "not a docstring"',
      '        """Nor this: not the first statement."""',
      '',
    ].join('\n');
    const out = blankPythonDocstrings(src);
    expect(out).toBe(
      blanked(src, '"""Module doc."""', "r'''Top doc, raw.\n\n    :param a: thing\n    '''", '"inner doc"', '"""Thing doc."""', '"""Method doc: ""quoted"" text."""'),
    );
    sameShape(src, out);
    expect(out).toContain('# a comment before the docstring');
    expect(out).toContain('"not a docstring"');
    expect(out).toContain('"""Nor this: not the first statement."""');
  });

  it('blanks implicitly concatenated docstrings and leaves f-strings, class attributes and non-ASCII text around them alone', () => {
    const src = 'def f():\n    "Part one. " "Part two."\n\ndef g():\n    f"""Not a {docstring}."""\n\nclass C:\n    x = 1\n    """Attribute doc é."""\n\ndef h():\n    """Ünïcode 😀 doc."""\n    return "é"\n';
    const out = blankPythonDocstrings(src);
    expect(out).toBe(blanked(src, '"Part one. " "Part two."', '"""Ünïcode 😀 doc."""'));
    sameShape(src, out);
  });
});

describe('go-doc-comments', () => {
  it('blanks the comment runs directly above top-level declarations and grouped type specs', () => {
    const src = [
      '// Package demo is a package doc; it stays.',
      'package demo',
      '',
      '// Foo does a thing.',
      '// It has two lines.',
      'func Foo() {}',
      '',
      '/* Bar is a block-commented type. */',
      'type Bar struct {',
      '\t// Field comment stays.',
      '\tName string // trailing stays',
      '}',
      '',
      '// Detached comment: a blank line follows, so it stays.',
      '',
      'func (b *Bar) Baz() {',
      '\t// body comment stays',
      '}',
      '',
      'var x = 1 // trailing comment stays',
      'const Y = 2',
      '',
      'type (',
      '\t// A is grouped.',
      '\tA int',
      '\tB = string',
      ')',
      '',
      '//go:generate stringer',
      '// Qux is documented after a directive.',
      'func Qux() {}',
      '',
    ].join('\n');
    const out = blankGoDocComments(src);
    expect(out).toBe(
      blanked(src, '// Foo does a thing.\n// It has two lines.', '/* Bar is a block-commented type. */', '// A is grouped.', '//go:generate stringer\n// Qux is documented after a directive.'),
    );
    sameShape(src, out);
  });
});

describe('resolveBlankRule', () => {
  it('reads a rule id from blank_rule and leaves a descriptive blank_rule to blank_jsdoc', () => {
    expect(resolveBlankRule(false, 'python-docstrings')).toEqual({ rule: 'python-docstrings' });
    expect(resolveBlankRule(false, 'go-doc-comments')).toEqual({ rule: 'go-doc-comments' });
    expect(resolveBlankRule(true, 'before indexing, replace every character except newline of each /** ... */ block comment')).toEqual({ rule: 'jsdoc' });
    expect(resolveBlankRule(true, undefined)).toEqual({ rule: 'jsdoc' });
    expect(resolveBlankRule(false, undefined)).toEqual({ rule: null });
  });

  it('refuses an unknown id and an id that contradicts blank_jsdoc', () => {
    expect(resolveBlankRule(false, 'rust-doc-comments')).toEqual({ error: expect.stringContaining('"rust-doc-comments" is unknown') });
    expect(resolveBlankRule(true, 'python-docstrings')).toEqual({ error: expect.stringContaining('"blank_jsdoc" must be false') });
  });

  it('is what parseDataset puts in the header', () => {
    const header = {
      type: 'header', name: 'd2c-py', kind: 'doc2code', split: 'dev', repo: 'o/r', commit: 'a'.repeat(40), include: ['pkg/**/*.py'],
      blank_jsdoc: false, blank_rule: 'python-docstrings', count: 0, corpus_files: 1, corpus_bytes: 1,
    };
    expect(parseDataset(`${JSON.stringify(header)}\n`, 'py.jsonl').header.blankRule).toBe('python-docstrings');
    expect(() => parseDataset(`${JSON.stringify({ ...header, blank_rule: 'nope' })}\n`, 'py.jsonl')).toThrow('line 1: "blank_rule" "nope" is unknown');
  });
});

describe('prepareCorpus with a blank rule', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'codescout-blank-rules-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('blanks by the header rule: docstrings in a Python corpus, doc comments in a Go corpus', async () => {
    const files: Record<string, string> = {
      'pkg/a.py': 'def f():\n    """Doc of f."""\n    return 1\n',
      'pkg/b.go': 'package b\n\n// G does.\nfunc G() {}\n',
    };
    for (const [rel, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, 'src', rel)), { recursive: true });
      await writeFile(join(root, 'src', rel), text);
    }
    for (const [rule, file] of [['python-docstrings', 'pkg/a.py'], ['go-doc-comments', 'pkg/b.go']] as const) {
      const header = {
        type: 'header', name: `d2c-${rule}`, kind: 'doc2code', split: 'dev', repo: 'o/r', commit: 'b'.repeat(40), include: [file],
        blank_jsdoc: false, blank_rule: rule, count: 0, corpus_files: 1, corpus_bytes: Buffer.byteLength(files[file]!),
      };
      const { header: h } = parseDataset(`${JSON.stringify(header)}\n`, 'set.jsonl');
      const corpus = await prepareCorpus({ header: h, datasetFile: 'set.jsonl', source: join(root, 'src'), workDir: join(root, 'work'), fresh: true });
      expect(corpus.files).toEqual([file]);
      expect(await readFile(join(corpus.dir, file), 'utf8')).toBe(applyBlankRule(rule, files[file]!));
      expect(await readFile(join(corpus.dir, file), 'utf8')).not.toBe(files[file]);
    }
  });
});
