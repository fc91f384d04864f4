import { describe, expect, it } from 'vitest';
import { runCrashTrials } from '../../../scripts/crash-test.js';

// Issue 9: a short run of scripts/crash-test.ts (the full run is `npx tsx scripts/crash-test.ts --trials 50`).
// Each trial SIGKILLs a real `codescout index`, `index --rebuild` or `watch` child; the reopened index must
// verify clean and, once updated, hold exactly the chunks of an index that was never killed.

describe('crash safety under SIGKILL', () => {
  it('three kills (first build, watch with edits, rebuild) each leave an index that verifies and converges', async () => {
    const summary = await runCrashTrials({
      trials: 3, seed: 9, files: 60, minDelayMs: 1200, maxDelayMs: 2500, kinds: ['index', 'watch', 'rebuild'],
    });
    expect(summary.failures).toEqual([]);
    expect(summary).toMatchObject({ trials: 3, verifyFailures: 0, mismatches: 0, finalMismatch: false });
    // The first build of 60 files takes longer than 2.5 s, so at least that child died mid-run.
    expect(summary.killedMidRun).toBeGreaterThanOrEqual(1);
  });
});
