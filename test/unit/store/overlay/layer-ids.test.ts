import { describe, expect, it } from 'vitest';
import { fromBase, fromLocal, isLocalRow, splitRowIds, toBase, toLocal } from '../../../../src/store/overlay/layer-ids.js';

describe('overlay row ids (interleaved layers)', () => {
  it('never gives a shared and a local row the same id, and maps each back to its layer', () => {
    const seen = new Map<number, string>();
    for (let id = 1; id <= 500; id++) {
      for (const [layer, to] of [['base', fromBase], ['local', fromLocal]] as const) {
        const overlay = to(id);
        expect(seen.has(overlay), `${layer} ${id} -> ${overlay} taken by ${seen.get(overlay)}`).toBe(false);
        seen.set(overlay, `${layer} ${id}`);
        expect(isLocalRow(overlay)).toBe(layer === 'local');
        expect(layer === 'local' ? toLocal(overlay) : toBase(overlay)).toBe(id);
      }
    }
  });

  it('nests: an overlay over an overlay still tells every row of the three layers apart', () => {
    // main (m), a branch over it (b), a developer's edits over the branch (d).
    const ids = [fromBase(fromBase(7)), fromBase(fromLocal(7)), fromLocal(7)];
    expect(new Set(ids).size).toBe(3);
    const { base, local } = splitRowIds(ids);
    expect(local).toEqual([7]);
    expect(splitRowIds(base)).toEqual({ base: [7], local: [7] });
  });
});
