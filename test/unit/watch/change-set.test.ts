import { describe, expect, it } from 'vitest';
import { PendingChanges } from '../../../src/watch/change-set.js';

describe('PendingChanges.putBack (issue 19: a batch that could not take the lock is kept)', () => {
  it('restores a taken batch, letting events recorded since win', () => {
    const pending = new PendingChanges(100);
    pending.change('a.ts');
    pending.change('b.ts');
    pending.remove('old.ts');
    const batch = pending.take();
    expect(pending.isEmpty).toBe(true);

    pending.remove('a.ts'); // deleted while the batch waited: stays deleted
    pending.change('old.ts'); // re-created meanwhile: stays changed
    pending.putBack(batch);
    expect(pending.take()).toEqual({ changed: ['b.ts', 'old.ts'], removed: ['a.ts'], fullPass: false });
  });

  it('keeps a full pass and respects the path cap', () => {
    const pending = new PendingChanges(1);
    pending.putBack({ changed: ['a.ts', 'b.ts'], removed: [], fullPass: false });
    expect(pending.take()).toEqual({ changed: ['a.ts'], removed: [], fullPass: true });
    pending.putBack({ changed: [], removed: [], fullPass: true });
    expect(pending.isEmpty).toBe(false);
  });
});
