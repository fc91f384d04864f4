import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../scripts/eval/args.js';
import { EvalUsageError } from '../../../scripts/eval/errors.js';

const base = ['--dataset', 'set.jsonl', '--corpus', 'repo'];

describe('eval arguments: how much a one-shot search returns', () => {
  it('by default one-shot modes search until ten distinct files', () => {
    const a = parseArgs(base);
    expect(a.k).toBeNull();
    expect(a.files).toBe(10);
  });

  it('--files N and --k N each set it; both together is a usage error naming them', () => {
    expect(parseArgs([...base, '--files', '20']).files).toBe(20);
    expect(parseArgs([...base, '--k', '60']).k).toBe(60);
    expect(() => parseArgs([...base, '--k', '60', '--files', '10'])).toThrow(EvalUsageError);
    expect(() => parseArgs([...base, '--k', '60', '--files', '10'])).toThrow(/--k and --files/);
    expect(() => parseArgs([...base, '--files', '0'])).toThrow(/--files must be an integer from 1 to 100/);
  });
});
