/** Index builds of the store bench: one timed update() of a root into a given store, and what it cost. */
import { openIndex, type CodeIndex, type Embedder, type UpdateReport } from '../../src/index.js';
import type { CacheBackedCounts, CacheBackedEmbedder } from './cache-backed-embedder.js';
import { timed } from './measure.js';
import { databaseBytes, vacuumAnalyze } from './bench-postgres.js';
import { dirBytes } from './temp-tree.js';

/** Where an index lives: the embedded store in a cache folder, or a namespace of a PostgreSQL store. */
export type StoreTarget =
  | { readonly kind: 'embedded'; readonly cacheDir: string }
  | {
    readonly kind: 'postgres'; readonly connectionString: string; readonly repo: string; readonly ref: string; readonly cacheDir: string;
    /** A branch written as a layer over this ref (`--base-ref`): only the files that differ are stored. */
    readonly baseRef?: string;
  };

/** A build's figures. */
export interface BuildResult {
  readonly ms: number;
  readonly cpuMs: number;
  readonly report: UpdateReport;
  /** What the embedder did: texts from the SQLite cache, texts the model computed (null: the real embedder ran alone). */
  readonly counts: CacheBackedCounts | null;
  /** Bytes the build added: the index folder (embedded) or the database growth (PostgreSQL, before VACUUM). */
  readonly bytesAdded: number;
}

/** Opens an index of `root` in `target`; PostgreSQL opens are readers unless `writer`. */
export function openAt(o: { root: string; target: StoreTarget; embedder?: Embedder; writer?: boolean }): Promise<CodeIndex> {
  const { target } = o;
  const base = { root: o.root, cacheDir: target.cacheDir, offline: true, ...(o.embedder ? { embedder: o.embedder } : {}) };
  if (target.kind === 'embedded') return openIndex(base);
  const baseRef = o.writer && target.baseRef !== undefined ? { baseRef: target.baseRef } : {};
  return openIndex({ ...base, store: target.connectionString, repo: target.repo, ref: target.ref, storeRole: o.writer ? 'writer' : 'reader', ...baseRef });
}

/**
 * Builds (or brings up to date) the index of `root` in `target` with one update(), closes it and measures what it
 * added on disk; a PostgreSQL build is followed by VACUUM ANALYZE (untimed; autovacuum is off in the bench server).
 */
export async function buildAt(o: { root: string; target: StoreTarget; embedder?: CacheBackedEmbedder; log: (line: string) => void }): Promise<BuildResult> {
  const { target } = o;
  const before = target.kind === 'postgres' ? await databaseBytes(target.connectionString) : 0;
  o.embedder?.takeCounts();
  const index = await openAt({ root: o.root, target, embedder: o.embedder, writer: true });
  let result: { value: UpdateReport; ms: number; cpuMs: number };
  try {
    result = await timed(() => index.update({ lockWaitMs: 60_000 }));
  } finally {
    await index.close();
  }
  const counts = o.embedder?.takeCounts() ?? null;
  const r = result.value;
  o.log(`build ${target.kind}${target.kind === 'postgres' ? ` ${target.ref}` : ''}: ${(result.ms / 1000).toFixed(1)} s, ${r.filesChanged} files changed, ` +
    `${r.embedded} to embed (${counts ? `${counts.computed} by the model` : 'all by the model'}), ${r.reused} reused`);
  let bytesAdded: number;
  if (target.kind === 'postgres') {
    bytesAdded = (await databaseBytes(target.connectionString)) - before;
    await vacuumAnalyze(target.connectionString);
  } else {
    bytesAdded = await dirBytes(index.indexDir);
  }
  return { ms: result.ms, cpuMs: result.cpuMs, report: r, counts, bytesAdded };
}
