import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BenchUsageError } from '../../../scripts/bench/cli-args.js';
import { queriesFromFile } from '../../../scripts/bench/queries.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function file(content: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'codescout-bench-'));
  dirs.push(dir);
  const path = join(dir, 'queries');
  writeFileSync(path, content);
  return path;
}

describe('queriesFromFile', () => {
  it('reads JSONL query fields, skipping a header and blank lines, and plain lines as they are', async () => {
    const jsonl = ['{"type":"header","name":"x"}', '{"id":"a","query":"close pages from the main process"}', '', '{"id":"b","query":"rate limit"}'];
    expect(await queriesFromFile(file(jsonl.join('\n')))).toEqual(['close pages from the main process', 'rate limit']);
    expect(await queriesFromFile(file('where is the throttle\n\n  token refresh  \n'))).toEqual(['where is the throttle', 'token refresh']);
  });

  it('names the flag and the file when it cannot be read or holds no query', async () => {
    await expect(queriesFromFile('/nonexistent/queries.jsonl')).rejects.toThrow(/--queries-file \/nonexistent\/queries\.jsonl: ENOENT/);
    await expect(queriesFromFile(file('{"type":"header"}\n'))).rejects.toBeInstanceOf(BenchUsageError);
  });
});
