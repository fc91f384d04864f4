import { describe, expect, it } from 'vitest';
import { ConfigError, retrieve, startRetrieval, type RetrievalResult } from '../../../src/index.js';
import { fixtureIndex } from '../../helpers/fixture-index.js';
// @ts-expect-error: a plain ES module shared with the CLI and MCP tests (run there as a judge command)
import { judge, judgePath } from '../../fixtures/judges/scripted-judge.mjs';

const TASK = { text: 'add rate limiting to the API endpoints' };
type Verdict = { path: string; relevance: number; reason: string; missingContext: string[] };
const scripted = judge as (r: { candidates: ReadonlyArray<{ path: string }> }) => { evaluations: Verdict[] };
const verdictOf = judgePath as (path: string) => Verdict;
const fixture = fixtureIndex('retrieval-repo');

const files = (r: RetrievalResult): Array<[string, number]> => [...r.results, ...r.related].map((f) => [f.path, f.relevance]);

describe('startRetrieval: the stepwise session (real model, real index)', () => {
  it('the scripted judge gives the same final files through the session and through retrieve({ evaluate })', async () => {
    const session = await startRetrieval(fixture.index, TASK);
    let cycles = 0;
    while (!session.isDone) {
      cycles++;
      const step = await session.judge(scripted({ candidates: session.candidates() }).evaluations);
      expect(step.done).toBe(session.isDone);
    }
    const stepwise = (await session.result());
    const looped = await retrieve(fixture.index, TASK, { evaluate: (_t, candidates) => scripted({ candidates }).evaluations });
    expect(files(stepwise)).toEqual(files(looped));
    expect(stepwise.results.map((f) => f.path)).toEqual(['src/http/middleware/throttle.ts', 'src/util/token-bucket.ts', 'src/http/pipeline.ts']);
    expect(stepwise.stoppedBecause).toBe('enough');
    expect(stepwise.cycles).toHaveLength(cycles);
    // The judge's own words are kept, and the identifier in them became a definition to look up.
    expect(stepwise.results[0]!.reason).toBe('throttles requests per client');
  });

  it('never offers a file again once the judge put it under 0.2, and learns terms from what it called high', async () => {
    const session = await startRetrieval(fixture.index, { ...TASK, maxCycles: 3, minHigh: 10 });
    const rejected = new Set<string>();
    const judgedHigh: string[] = [];
    while (!session.isDone) {
      const candidates = session.candidates();
      for (const c of candidates) expect(rejected.has(c.path), `${c.path} came back in cycle ${session.cycle}`).toBe(false);
      const verdicts = scripted({ candidates }).evaluations;
      for (const v of verdicts) if (v.relevance < 0.2) rejected.add(v.path);
      const highTexts = candidates.filter((c) => verdictOf(c.path).relevance >= 0.7).flatMap((c) => c.chunks.map((k) => k.text.toLowerCase()));
      judgedHigh.push(...highTexts);
      const cycle = session.cycle;
      await session.judge(verdicts);
      if (session.isDone) break;
      const learned = (await session.result()).cycles[cycle - 1]!.newTerms;
      expect(learned.length).toBeGreaterThan(0);
      for (const term of learned) expect(judgedHigh.some((t) => t.includes(term.toLowerCase())), `"${term}" is not from a file judged high`).toBe(true);
      expect(session.context().learnedTerms).toEqual(expect.arrayContaining(learned));
    }
    expect(rejected.size).toBeGreaterThan(3);
  });

  it('learns nothing from a file the judge rejects, however high the built-in hint', async () => {
    // The hand-tuned judge's hint calls the throttle high on this fixture: the judge's "no" must still win.
    const session = await startRetrieval(fixture.index, { ...TASK, maxCycles: 2 }, { builtinJudge: 'heuristic' });
    const throttle = session.candidates().find((c) => c.path === 'src/http/middleware/throttle.ts')!;
    expect(throttle.hint.relevance).toBeGreaterThanOrEqual(0.7);
    await session.judge(session.candidates().map((c) => ({ path: c.path, relevance: 0.1, reason: 'no' })));
    expect((await session.result()).cycles[0]!.newTerms).toEqual([]);
    expect(session.candidates().map((c) => c.path)).not.toContain('src/http/middleware/throttle.ts');
  });

  it('a partial judgement: judged files take the judge\'s word, the others keep the hint', async () => {
    const session = await startRetrieval(fixture.index, { ...TASK, maxCycles: 1 }, { relatedThreshold: 0 });
    const candidates = session.candidates();
    const hints = new Map(candidates.map((c) => [c.path, c.hint]));
    // The file the built-in judge likes least, raised by the judge.
    const weakest = [...candidates].sort((a, b) => a.hint.relevance - b.hint.relevance)[0]!.path;
    expect(hints.get(weakest)!.relevance).toBeLessThan(0.5);
    await session.judge([{ path: weakest, relevance: 0.95, reason: 'the judge says so' }]);
    const result = (await session.result());
    expect(result.results.find((f) => f.path === weakest)).toMatchObject({ relevance: 0.95, reason: 'the judge says so' });
    expect(result.results[0]!.path).toBe(weakest);
    for (const f of [...result.results, ...result.related]) {
      if (f.path === weakest) continue;
      expect(f.relevance).toBeGreaterThanOrEqual(hints.get(f.path)!.relevance);
    }
  });

  it('refuses a judgement for a path that is not a candidate, a relevance out of range, and judging after the end', async () => {
    const session = await startRetrieval(fixture.index, { ...TASK, maxCycles: 1 });
    await expect(session.judge([{ path: 'src/nowhere.ts', relevance: 0.9 }])).rejects.toThrow(ConfigError);
    await expect(session.judge([{ path: 'src/nowhere.ts', relevance: 0.9 }])).rejects.toThrow('"src/nowhere.ts" is not a candidate of cycle 1');
    const first = session.candidates()[0]!.path;
    await expect(session.judge([{ path: first, relevance: 1.5 }])).rejects.toThrow(`The relevance of "${first}" must be a number from 0 to 1; got 1.5.`);
    await expect(session.judge([{ path: first, relevance: 0.5 }, { path: first, relevance: 0.6 }])).rejects.toThrow('judged twice');
    // A refused judgement changed nothing: the same cycle is still open.
    expect(session.cycle).toBe(1);
    await session.judge([]);
    expect(session.isDone).toBe(true);
    await expect(session.judge([])).rejects.toThrow('already stopped');
  });

  it('the learned judge keeps the bands: an unrelated task reaches no high file; it scores the same files the same way twice', async () => {
    const unrelated = await retrieve(fixture.index, { text: 'bake sourdough bread with a long cold proof' }, { builtinJudge: 'learned', relatedThreshold: 0 });
    const all = [...unrelated.results, ...unrelated.related];
    expect(all.length).toBeGreaterThan(0);
    for (const f of all) {
      expect(f.relevance, f.path).toBeLessThan(0.7);
      expect(f.reason).toMatch(/Learned judge: \d\.\d\d\.$/);
    }
    const again = await retrieve(fixture.index, { text: 'bake sourdough bread with a long cold proof' }, { builtinJudge: 'learned', relatedThreshold: 0 });
    expect(files(again)).toEqual(files(unrelated));
  });
});
