import { describe, expect, it } from 'vitest';
import { parseDataset } from '../../../scripts/eval/dataset.js';
import { EvalInputError } from '../../../scripts/eval/errors.js';

const header = {
  type: 'header', name: 'c2f-demo', kind: 'commit2files', split: 'dev', repo: 'o/r', commit: 'a'.repeat(40),
  include: ['src/**/*.ts'], exclude: [], blank_jsdoc: false, count: 1, corpus_files: 3, corpus_bytes: 100,
};
const task = { id: 't1', query: 'Fix the cache\nbody text', gold: [{ path: 'src/a.ts' }], commit: 'b'.repeat(40), type: 'fix' };
const lines = (...rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';

describe('parseDataset', () => {
  it('keeps only id, query and gold of a task (never its commit or type)', () => {
    const d = parseDataset(lines(header, task), 'demo.jsonl');
    expect(d.tasks).toEqual([{ id: 't1', query: 'Fix the cache\nbody text', gold: [{ path: 'src/a.ts' }] }]);
    expect(d.header.corpusFiles).toBe(3);
    expect(d.header.blankJsdoc).toBe(false);
  });

  it('names the file and line of a malformed task', () => {
    expect(() => parseDataset(lines(header, { ...task, gold: [] }), 'demo.jsonl')).toThrow('Dataset demo.jsonl line 2: task t1: "gold" must be a non-empty list.');
  });

  it('refuses a task count that differs from the header', () => {
    expect(() => parseDataset(lines({ ...header, count: 2 }, task), 'demo.jsonl')).toThrow(EvalInputError);
  });

  it('requires line ranges in doc2code gold', () => {
    const doc = { ...header, kind: 'doc2code', blank_jsdoc: true };
    expect(() => parseDataset(lines(doc, task), 'demo.jsonl')).toThrow('line 2: task t1: gold "startLine" must be a line number >= 1.');
  });
});
