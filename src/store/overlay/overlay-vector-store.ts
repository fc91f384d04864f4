import type { VectorHit, VectorStore } from '../vector-store.js';
import { fromBase, fromLocal, isLocalRow, toLocal, withOverlayIds } from './layer-ids.js';
import type { OverlayCatalog } from './overlay-catalog.js';

/** Most shared hits read (as a multiple of k) while skipping the rows of shadowed files. */
const MAX_SHADOW_DEPTH = 16;

/**
 * The vectors of an {@link OverlayCatalog}: the shared layer's store (only searched) and the local layer's (written:
 * the indexer's upserts and removals carry local rows, see layer-ids.ts). A query asks both and keeps the nearest k, leaving
 * out the shared rows of files the local layer shadows. Similarities are cosines of one model in both layers, so
 * they compare as they are.
 */
export class OverlayVectorStore implements VectorStore {
  constructor(private readonly o: { catalog: OverlayCatalog; base: VectorStore; local: VectorStore }) {}

  async count(): Promise<number> {
    const [shared, own] = await Promise.all([this.o.base.count(), this.o.local.count()]);
    return shared + own;
  }

  async query(vector: Float32Array, options: { readonly k: number }): Promise<VectorHit[]> {
    const [shadow, own] = await Promise.all([this.o.catalog.shadowed(), this.o.local.query(vector, options)]);
    const shared = await this.sharedHits(vector, options.k, new Set(shadow.keys()));
    const merged = [...withOverlayIds(shared, fromBase), ...withOverlayIds(own, fromLocal)];
    return merged.sort((a, b) => b.similarity - a.similarity).slice(0, options.k);
  }

  async upsert(items: readonly { rowId: number; vector: Float32Array }[]): Promise<void> {
    await this.o.local.upsert(items.map((item) => ({ rowId: localRow(item.rowId), vector: item.vector })));
  }

  /** Drops local rows; the shared layer's rows are never removed from here (a shadowed file's are filtered by path). */
  async remove(rowIds: readonly number[]): Promise<number> {
    return this.o.local.remove(rowIds.filter(isLocalRow).map(toLocal));
  }

  async catchUp(): Promise<void> {
    await Promise.all([this.o.base.catchUp(), this.o.local.catchUp()]);
  }

  async written(): Promise<void> {
    await this.o.local.written();
  }

  async checkpoint(): Promise<void> {
    await this.o.local.checkpoint();
  }

  async verify(): Promise<string[]> {
    const [shared, own] = await Promise.all([this.o.base.verify(), this.o.local.verify()]);
    return [...shared.map((p) => `shared index: ${p}`), ...own.map((p) => `local edits: ${p}`)];
  }

  bytesOnDisk(): number {
    return this.o.base.bytesOnDisk() + this.o.local.bytesOnDisk();
  }

  async flush(): Promise<void> {
    await this.o.local.flush();
  }

  async close(): Promise<void> {
    try {
      await this.o.local.close();
    } finally {
      await this.o.base.close();
    }
  }

  /** The shared layer's k nearest outside shadowed files, reading deeper while shadowed rows take the places. */
  private async sharedHits(vector: Float32Array, k: number, shadow: ReadonlySet<string>): Promise<VectorHit[]> {
    if (shadow.size === 0) return this.o.base.query(vector, { k });
    for (let depth = k * 2; ; depth *= 2) {
      const hits = await this.o.base.query(vector, { k: depth });
      const paths = await this.o.catalog.base.rowPaths(hits.map((h) => h.rowId));
      const kept = hits.filter((h) => !shadow.has(paths.get(h.rowId) ?? ''));
      if (kept.length >= k || hits.length < depth || depth >= k * MAX_SHADOW_DEPTH) return kept.slice(0, k);
    }
  }
}

/** The local id of a row the indexer writes; a shared row here is a bug in the layer above. */
function localRow(rowId: number): number {
  if (!isLocalRow(rowId)) throw new Error(`Row ${rowId} belongs to the shared index, which this process only reads.`);
  return toLocal(rowId);
}
