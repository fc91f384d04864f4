import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { retrieve, type RetrievalResult } from '../../../src/index.js';
import { fixtureIndex } from '../../helpers/fixture-index.js';
import { ConfigError } from '../../../src/errors.js';

const fixture = fixtureIndex('retrieval-repo');

const paths = (r: RetrievalResult): string[] => [...r.results, ...r.related].map((f) => f.path);
// The loop's mechanics (learned words, gap-following, excludes) shown with the hand-tuned judge, which calls this
// ten-file code base's throttle high; the default (learned) judge is more cautious here, tested on its own below.
const HEURISTIC = { builtinJudge: 'heuristic' } as const;

describe('retrieve: the iterative loop on a code base whose words differ from the task (real model)', () => {
  it('learns the code base\'s word for "rate limiting" and finds the throttle, its bucket and its registration', async () => {
    const loop = await retrieve(fixture.index, { text: 'add rate limiting to the API endpoints' }, HEURISTIC);
    expect(loop.cycles[0]!.newTerms).toContain('throttle');
    expect(loop.cycles[1]!.query.keywords).toContain('throttle');
    expect(loop.results[0]!.path).toBe('src/http/middleware/throttle.ts');
    expect(loop.results[0]!.relevance).toBeGreaterThanOrEqual(0.8);
    expect(loop.results[0]!.reason).toMatch(/similarity/);

    const single = await retrieve(fixture.index, { text: 'add rate limiting to the API endpoints', maxCycles: 1 }, HEURISTIC);
    expect(single.cycles).toHaveLength(1);
    const missedBySingle = paths(loop).filter((p) => !paths(single).includes(p));
    // Its registration: the pipeline calls throttle(), found by following the high result to its users.
    expect(missedBySingle).toContain('src/http/pipeline.ts');
    expect(loop.related.find((f) => f.path === 'src/http/pipeline.ts')!.reason).toContain('Uses throttle from src/http/middleware/throttle.ts');
  });

  it('follows a gap to an imported definition: the throttle uses TokenBucket, so its file joins as related', async () => {
    const loop = await retrieve(fixture.index, { text: 'add rate limiting to the API endpoints' }, HEURISTIC);
    const bucket = loop.related.find((f) => f.path === 'src/util/token-bucket.ts');
    expect(bucket).toBeDefined();
    expect(bucket!.relevance).toBeGreaterThanOrEqual(0.5);
    expect(bucket!.reason).toContain('Defines TokenBucket, which src/http/middleware/throttle.ts uses');
    // Context for the answer, not an answer: after every answer of the related band.
    expect(bucket!.role).toBe('context');
    expect(loop.results[0]!.role).toBe('answer');
    const order = [...loop.results, ...loop.related];
    const firstContext = order.findIndex((f) => f.role === 'context');
    expect(order.slice(firstContext).every((f) => f.role === 'context' || f.relevance < 0.4)).toBe(true);
    expect(loop.results[0]!.missingContext).not.toContain('definition of TokenBucket');
  });

  it('never asks for a definition the answer already holds (the scheduler uses retry, and retry.ts is the answer)', async () => {
    const loop = await retrieve(fixture.index, { text: 'retry a failed database query' });
    const files = [...loop.results, ...loop.related];
    expect(files[0]!.path).toBe('src/util/retry.ts');
    const scheduler = files.find((f) => f.path === 'src/jobs/scheduler.ts');
    expect(scheduler).toBeDefined();
    expect(scheduler!.missingContext).not.toContain('definition of retry');
    const held = new Set(files.flatMap((f) => f.chunks.map((c) => c.symbol)));
    const asked = files.flatMap((f) => f.missingContext).filter((m) => m.startsWith('definition of '));
    expect(asked.filter((m) => held.has(m.slice('definition of '.length)))).toEqual([]);
  });

  it('learns jwt/session words for "auth tokens expire" and returns the auth files first', async () => {
    const loop = await retrieve(fixture.index, { text: 'fix the bug where auth tokens expire' }, HEURISTIC);
    const learned = loop.cycles.flatMap((c) => c.newTerms);
    expect(learned.some((t) => ['exp', 'stale', 'session', 'refresh', 'rotated', 'refresher'].includes(t))).toBe(true);
    expect(paths(loop).slice(0, 3).sort()).toEqual(['src/auth/jwt.ts', 'src/auth/session-refresh.ts', 'src/auth/token-store.ts']);
  });

  it('excludes irrelevant files and returns them only when a later cycle links them to a result', async () => {
    const loop = await retrieve(fixture.index, { text: 'add rate limiting to the API endpoints' }, HEURISTIC);
    const excluded = loop.cycles.flatMap((c) => c.excluded);
    expect(excluded.length).toBeGreaterThan(0);
    for (const relevant of ['src/http/middleware/throttle.ts', 'src/util/token-bucket.ts']) expect(excluded).not.toContain(relevant);
    expect(excluded.some((p) => p.startsWith('src/jobs/') || p.startsWith('src/users/') || p.startsWith('src/db/'))).toBe(true);
    for (const f of [...loop.results, ...loop.related]) {
      if (excluded.includes(f.path)) expect(f.reason).toMatch(/^(Uses|Defines) /);
    }
    if (loop.cycles[1]) expect(loop.cycles[1].query.excludes).toEqual(expect.arrayContaining(loop.cycles[0]!.excluded));
  });

  it('the default (learned) judge answers the README example with the throttle first, and the formula alone is still there by name', async () => {
    const task = { text: 'add rate limiting to the API endpoints' };
    const byDefault = await retrieve(fixture.index, task);
    expect(paths(byDefault)[0]).toBe('src/http/middleware/throttle.ts');
    expect(paths(byDefault)[0]).toBe(paths(await retrieve(fixture.index, task, { builtinJudge: 'learned' }))[0]);
    // The default is the blend, not the formula: the same file gets another relevance than the hand-tuned judge's.
    const formula = await retrieve(fixture.index, task, HEURISTIC);
    const relevanceOf = (r: RetrievalResult): number => [...r.results, ...r.related].find((f) => f.path === 'src/http/middleware/throttle.ts')!.relevance;
    expect(relevanceOf(byDefault)).not.toBe(relevanceOf(formula));
    expect(byDefault.results.every((f) => f.relevance >= 0.7) && byDefault.related.every((f) => f.relevance < 0.7)).toBe(true);
  });

  it('stops early when enough high-relevance files are found', async () => {
    const loop = await retrieve(fixture.index, { text: 'hash a password and check it against the stored hash', minHigh: 1 });
    expect(loop.stoppedBecause).toBe('enough');
    expect(loop.cycles).toHaveLength(1);
    expect(loop.results[0]!.path).toBe('src/auth/password.ts');
  });

  it('never runs more than maxCycles', async () => {
    for (const maxCycles of [1, 2]) {
      const loop = await retrieve(fixture.index, { text: 'which code sends responses compressed with gzip', maxCycles, minHigh: 10 });
      expect(loop.cycles.length).toBeLessThanOrEqual(maxCycles);
    }
  });

  it('is calibrated: an unrelated task reaches no high-relevance result', async () => {
    const loop = await retrieve(fixture.index, { text: 'bake sourdough bread' });
    expect(loop.results).toEqual([]);
    expect([...loop.results, ...loop.related].every((f) => f.relevance < 0.7)).toBe(true);
  });

  it('respects patterns and excludes from the task', async () => {
    const loop = await retrieve(fixture.index, { text: 'parse a date string', patterns: ['src/util/**'], excludes: ['src/util/dates.ts'] });
    for (const p of paths(loop)) {
      expect(p.startsWith('src/util/')).toBe(true);
      expect(p).not.toBe('src/util/dates.ts');
    }
  });

  it('uses a caller-supplied async evaluator and passes it what the loop learned', async () => {
    const seen: number[] = [];
    const loop = await retrieve(
      fixture.index,
      { text: 'add rate limiting to the API endpoints', maxCycles: 2, minHigh: 5 },
      {
        evaluate: async (_task, files, context) => {
          seen.push(context.cycle);
          await new Promise((r) => setImmediate(r));
          return files.map((f) => ({
            path: f.path,
            relevance: f.path.includes('middleware') ? 0.9 : 0.1,
            reason: 'judged by path',
            missingContext: [],
          }));
        },
      },
    );
    expect(seen).toEqual([1, 2]);
    expect(loop.results.length).toBeGreaterThan(0);
    expect(loop.results.every((f) => f.path.includes('middleware') && f.relevance === 0.9)).toBe(true);
  });

  it('rejects a bad task with a typed error naming the field', async () => {
    await expect(retrieve(fixture.index, { text: '   ' })).rejects.toBeInstanceOf(ConfigError);
    await expect(retrieve(fixture.index, { text: 'x'.repeat(100_001) })).rejects.toThrow(/limit is 10000/);
    await expect(retrieve(fixture.index, { text: 'ok', maxCycles: 9 })).rejects.toThrow(/maxCycles/);
    await expect(retrieve(fixture.index, { text: 'ok', patterns: ['src/[abc'] })).rejects.toThrow(/malformed/);
  });
});
