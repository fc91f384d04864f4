import { describe, expect, it } from 'vitest';
import { retrieve } from '../../../src/index.js';
import { fixtureIndex } from '../../helpers/fixture-index.js';
import { runCli } from '../../helpers/cli.js';

// A task for something the code base does not have yet ("add rate limiting" to a small API with none): no file
// reaches the related band, and the answer must still name the code base's nearest files — with the low relevance
// they were judged, so the bands keep their meaning — never nothing. (Real model, real tree-sitter.)

const TASK = 'add rate limiting to the API endpoints';
const fixture = fixtureIndex('api-repo');

describe('a task for a feature the code base lacks (real model)', () => {
  it('answers with the nearest files of the tangential band, at most five, where the app wires its middleware', async () => {
    const r = await retrieve(fixture.index, { text: TASK });
    expect(r.results).toEqual([]);
    expect(r.related.length).toBeGreaterThan(0);
    expect(r.related.length).toBeLessThanOrEqual(5);
    expect(r.related.map((f) => f.path)).toContain('src/app.ts');
    for (const f of r.related) {
      expect(f.relevance).toBeGreaterThanOrEqual(0.2);
      expect(f.relevance).toBeLessThan(0.4);
    }
  });

  it('a task in the code base\'s own words still answers from the related band and above only', async () => {
    const r = await retrieve(fixture.index, { text: 'check the bearer token and reject unauthorized requests' });
    expect([...r.results, ...r.related].map((f) => f.path)).toContain('src/middleware/auth.ts');
    // With an answer in the band, a near miss (the token helper, judged tangential here) does not stand in.
    for (const f of r.related) expect(f.relevance).toBeGreaterThanOrEqual(0.4);
  });

  it('query --json answers the same way; the readable output calls them near misses', async () => {
    const json = await runCli(['query', TASK, '--root', fixture.root, '--cache-dir', fixture.cacheDir, '--json', '--no-server']);
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as { results: unknown[]; related: Array<{ path: string }> };
    expect(out.results).toEqual([]);
    expect(out.related.map((f) => f.path)).toContain('src/app.ts');
    const human = await runCli(['query', TASK, '--root', fixture.root, '--cache-dir', fixture.cacheDir, '--no-server']);
    expect(human.stdout).toContain('near misses (0.2-0.4):');
    expect(human.stdout).not.toContain('related:');
  });
});
