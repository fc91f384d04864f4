import type { EmbedderIdentity } from '../../embed/embedder.js';
import type { AsyncCatalog, LexicalSearchOptions } from '../catalog-port.js';
import type {
  CatalogStats, ChunkRow, FileRow, LexicalHit, Manifest, ReplaceFileInput, ReplaceFileResult,
} from '../catalog-types.js';
import { fromBase, fromLocal, isLocalRow, rekey, splitRowIds, toBase, toLocal, withOverlayIds } from './layer-ids.js';
import { localHitsOnSharedScale, mergeLexicalHits } from './lexical-merge.js';

/** content_hash of a local file row that hides a file of the shared layer: gone (or no longer indexed) here. */
export const HIDDEN_FILE_HASH = 'overlay:hidden';

/** Paths the list of base files is read whole for, rather than one look-up each. */
const LIST_BASE_FILES_FROM = 20;

/**
 * A shared index seen through a developer's working tree: the shared layer (`base`, a namespace of a shared store,
 * only read) under a local layer (`local`, an embedded catalog, written) that holds the files this checkout has
 * changed, added or deleted. A path the local layer holds shadows the shared layer's file of that path — a changed
 * file replaces it, a deleted one hides it (a row with {@link HIDDEN_FILE_HASH} and no chunks) — so searches answer
 * as if the shared index had been built from this working tree, without writing to it. A file written back to the
 * shared layer's content leaves the local layer again.
 *
 * Row ids interleave the layers' own (layer-ids.ts), so an overlay can be the shared layer of another. Every write
 * goes to the local layer. Counts that would need a scan of the shared layer per path (chunkCount, documentFrequencies) add both layers
 * and so include the shared chunks of shadowed files: they feed ranking statistics, where that is noise.
 */
export class OverlayCatalog implements AsyncCatalog {
  private sharedStats: { generation: number; stats: CatalogStats } | undefined;
  /** The local layer's paths as this writer last read them (see touchFile); dropped by every write. */
  private writerShadow: Map<string, FileRow> | undefined;

  constructor(
    /** The shared layer: read only. */
    readonly base: AsyncCatalog,
    /** The local layer: the working tree's own files. */
    readonly local: AsyncCatalog,
  ) {}

  get schemaVersion(): number {
    return this.base.schemaVersion;
  }

  /** The local layer's file rows by path: every path whose shared file is shadowed. */
  async shadowed(): Promise<Map<string, FileRow>> {
    return new Map((await this.local.listFiles()).map((f) => [f.path, f]));
  }

  async getManifest(): Promise<Manifest | null> {
    return (await this.base.getManifest()) ?? this.local.getManifest();
  }

  async initManifest(input: EmbedderIdentity & { readonly root: string }): Promise<void> {
    await this.local.initManifest(input);
  }

  async resetManifest(): Promise<void> {
    await this.local.resetManifest();
  }

  async assertCompatible(identity: EmbedderIdentity): Promise<void> {
    await ((await this.base.getManifest()) !== null ? this.base : this.local).assertCompatible(identity);
  }

  async touch(): Promise<void> {
    await this.local.touch();
  }

  /**
   * None applies: the shared layer's chunks are its writer's, and chunking every file of the checkout again would
   * only compare each with the shared row (a round trip each) to keep nothing. Local files are chunked when they change.
   */
  async chunkerVersion(): Promise<undefined> {
    return undefined;
  }

  async setChunkerVersion(): Promise<void> {
    // See chunkerVersion.
  }

  async generation(): Promise<number> {
    const [base, local] = await Promise.all([this.base.generation(), this.local.generation()]);
    return base + local;
  }

  async chunkCount(): Promise<number> {
    const [base, local] = await Promise.all([this.base.chunkCount(), this.local.chunkCount()]);
    return base + local;
  }

  async getFile(path: string): Promise<FileRow | undefined> {
    const own = await this.local.getFile(path);
    if (own !== undefined) return own.contentHash === HIDDEN_FILE_HASH ? undefined : own;
    return this.base.getFile(path);
  }

  async listFiles(): Promise<FileRow[]> {
    const [shadow, base] = await Promise.all([this.shadowed(), this.base.listFiles()]);
    const files = base.filter((f) => !shadow.has(f.path));
    for (const f of shadow.values()) if (f.contentHash !== HIDDEN_FILE_HASH) files.push(f);
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * A file of the local layer is touched there; the shared layer's files are not this checkout's to touch. Only a
   * writer touches (it holds the local layer's lock, so nobody else changes which paths it holds), and a pass touches
   * every unchanged file: the local paths are read once and kept until this catalog writes again.
   */
  async touchFile(input: { readonly path: string; readonly size: number; readonly mtimeMs: number }): Promise<void> {
    this.writerShadow ??= await this.shadowed();
    const own = this.writerShadow.get(input.path);
    if (own !== undefined && own.contentHash !== HIDDEN_FILE_HASH) await this.local.touchFile(input);
  }

  /** The local cache first, then the shared one (the team's: most texts of an edited file are there already). */
  async cachedVectors(hashes: readonly string[], revision: string): Promise<Map<string, Float32Array>> {
    const found = await this.local.cachedVectors(hashes, revision);
    const missing = hashes.filter((h) => !found.has(h));
    if (missing.length > 0) for (const [hash, vector] of await this.base.cachedVectors(missing, revision)) found.set(hash, vector);
    return found;
  }

  /**
   * Writes the file to the local layer, copying the vectors it takes from the shared cache into the local one (so
   * the local layer stays whole by itself). A file whose content is the shared layer's leaves the local layer.
   */
  async replaceFile(input: ReplaceFileInput): Promise<ReplaceFileResult> {
    this.writerShadow = undefined;
    const shared = await this.base.getFile(input.path);
    if (shared !== undefined && shared.contentHash === input.contentHash && shared.language === input.language) {
      const removed = await this.local.removeFiles([input.path]);
      return { removedRowIds: removed.map(fromLocal), added: [], keptCount: 0 };
    }
    const result = await this.local.replaceFile({ ...input, vectors: await this.vectorsToCopy(input) });
    return {
      removedRowIds: result.removedRowIds.map(fromLocal),
      added: withOverlayIds(result.added, fromLocal),
      keptCount: result.keptCount,
    };
  }

  /** Removes local files; a file of the shared layer is hidden by a local row instead. Returns the rows gone from view. */
  async removeFiles(paths: readonly string[]): Promise<number[]> {
    if (paths.length === 0) return [];
    this.writerShadow = undefined;
    const shared = await this.sharedFiles(paths);
    const removed: number[] = [];
    const revision = (await this.getManifest())?.revision ?? '';
    for (const path of paths) {
      const row = shared.get(path);
      if (row === undefined) continue;
      const hidden = await this.local.replaceFile({
        path, size: 0, mtimeMs: 0, contentHash: HIDDEN_FILE_HASH, language: row.language, chunks: [], vectors: new Map(), revision,
      });
      // The shared rows stay in the shared layer: every search leaves them out by path.
      removed.push(...hidden.removedRowIds.map(fromLocal));
    }
    removed.push(...(await this.local.removeFiles(paths.filter((p) => !shared.has(p)))).map(fromLocal));
    return removed;
  }

  /** Forgets the local layer: the view is the shared index again. */
  async clear(): Promise<void> {
    this.writerShadow = undefined;
    await this.local.clear();
  }

  async dropCachedVectors(hashes: readonly string[], revision: string): Promise<number> {
    return this.local.dropCachedVectors(hashes, revision);
  }

  async pruneEmbeddings(options: { readonly revision: string; readonly keepUnreferenced: number }): Promise<number> {
    return this.local.pruneEmbeddings(options);
  }

  async resetReason(): Promise<string | null> {
    return (await this.local.resetReason()) ?? this.base.resetReason();
  }

  async markReset(reason: string): Promise<void> {
    await this.local.markReset(reason);
  }

  async clearReset(): Promise<void> {
    await this.local.clearReset();
  }

  async getChunks(rowIds: readonly number[]): Promise<ChunkRow[]> {
    const { base, local } = splitRowIds(rowIds);
    const [shadow, shared, own] = await Promise.all([this.shadowed(), this.base.getChunks(base), this.local.getChunks(local)]);
    const visible = shared.filter((r) => !shadow.has(r.path));
    const byId = new Map<number, ChunkRow>([...withOverlayIds(visible, fromBase), ...withOverlayIds(own, fromLocal)].map((r) => [r.rowId, r]));
    return rowIds.flatMap((id) => byId.get(id) ?? []);
  }

  async rowPaths(rowIds: readonly number[]): Promise<Map<number, string>> {
    const { base, local } = splitRowIds(rowIds);
    const [shadow, shared, own] = await Promise.all([this.shadowed(), this.base.rowPaths(base), this.local.rowPaths(local)]);
    const visible = new Map([...shared].filter(([, path]) => !shadow.has(path)));
    return new Map([...rekey(visible, fromBase), ...rekey(own, fromLocal)]);
  }

  async getChunkByRowId(rowId: number): Promise<ChunkRow | undefined> {
    const row = isLocalRow(rowId) ? await this.local.getChunkByRowId(toLocal(rowId)) : await this.base.getChunkByRowId(toBase(rowId));
    if (row === undefined || (!isLocalRow(rowId) && (await this.shadowed()).has(row.path))) return undefined;
    return { ...row, rowId };
  }

  /** Both layers' best hits, the shared layer's without shadowed files, the local scores put on the shared scale. */
  async lexicalSearch(query: string, options: LexicalSearchOptions): Promise<LexicalHit[]> {
    const shadow = await this.shadowed();
    if (shadow.size === 0) return withOverlayIds(await this.base.lexicalSearch(query, options), fromBase);
    const accept = (path: string): boolean => !shadow.has(path) && (options.accept?.(path) ?? true);
    const [shared, own] = await Promise.all([
      this.base.lexicalSearch(query, { ...options, accept }), localHitsOnSharedScale({ query, options, base: this.base, local: this.local }),
    ]);
    return mergeLexicalHits(withOverlayIds(shared, fromBase), withOverlayIds(own, fromLocal), options.k);
  }

  async documentFrequencies(words: readonly string[]): Promise<Map<string, number>> {
    const [shared, own] = await Promise.all([this.base.documentFrequencies(words), this.local.documentFrequencies(words)]);
    return new Map(words.map((w) => [w, (shared.get(w) ?? 0) + (own.get(w) ?? 0)]));
  }

  /** The local layer's definitions first (the developer's own edits), then the shared layer's outside shadowed files. */
  async findSymbolRowIds(names: readonly string[], limit?: number, options?: { includeMethods?: boolean }): Promise<number[]> {
    const [shadow, own, shared] = await Promise.all([
      this.shadowed(), this.local.findSymbolRowIds(names, limit, options), this.base.findSymbolRowIds(names, limit, options),
    ]);
    const paths = shadow.size === 0 ? new Map<number, string>() : await this.base.rowPaths(shared);
    const ids = [...own.map(fromLocal), ...shared.filter((id) => !shadow.has(paths.get(id) ?? '')).map(fromBase)];
    return limit === undefined ? ids : ids.slice(0, limit);
  }

  async symbolPaths(names: readonly string[], limit?: number): Promise<Map<string, string[]>> {
    const [shadow, own, shared] = await Promise.all([this.shadowed(), this.local.symbolPaths(names, limit), this.base.symbolPaths(names, limit)]);
    const out = new Map<string, string[]>();
    for (const name of new Set([...shared.keys(), ...own.keys()])) {
      const paths = [...(own.get(name) ?? []), ...(shared.get(name) ?? []).filter((p) => !shadow.has(p))];
      if (paths.length > 0) out.set(name, [...new Set(paths)]);
    }
    return out;
  }

  /** Both layers' rows (the shared layer's first), shadowed ones included: for verification and sampling. */
  async *allVectors(revision: string): AsyncGenerator<{ rowId: number; vector: Float32Array }> {
    for await (const item of this.base.allVectors(revision)) yield { rowId: fromBase(item.rowId), vector: item.vector };
    for await (const item of this.local.allVectors(revision)) yield { rowId: fromLocal(item.rowId), vector: item.vector };
  }

  async vectorsForRows(rowIds: readonly number[], revision: string): Promise<Array<{ rowId: number; vector: Float32Array }>> {
    const { base, local } = splitRowIds(rowIds);
    const [paths, shared, own] = await Promise.all([this.rowPaths(rowIds), this.base.vectorsForRows(base, revision), this.local.vectorsForRows(local, revision)]);
    // Rows of shadowed shared files are not in view (rowPaths leaves them out).
    return [...withOverlayIds(shared, fromBase), ...withOverlayIds(own, fromLocal)].filter((v) => paths.has(v.rowId));
  }

  /** The local layer's: the shared layer's missing vectors are its writer's to make. */
  async missingVectors(revision: string): Promise<Array<{ rowId: number; hash: string }>> {
    return withOverlayIds(await this.local.missingVectors(revision), fromLocal);
  }

  async pendingTexts(limit: number): Promise<Array<{ hash: string; embedText: string }>> {
    return this.local.pendingTexts(limit);
  }

  async storePendingVectors(vectors: ReadonlyMap<string, Float32Array>, revision: string): Promise<Array<{ rowId: number; hash: string }>> {
    return withOverlayIds(await this.local.storePendingVectors(vectors, revision), fromLocal);
  }

  async dropUnusedPendingTexts(): Promise<number> {
    return this.local.dropUnusedPendingTexts();
  }

  async waitingRowIds(): Promise<number[]> {
    const [shared, own] = await Promise.all([this.base.waitingRowIds(), this.local.waitingRowIds()]);
    return [...shared.map(fromBase), ...own.map(fromLocal)];
  }

  /** Both layers': a shared index still being built says so too. */
  async pendingChunkCount(): Promise<number> {
    const [shared, own] = await Promise.all([this.base.pendingChunkCount(), this.local.pendingChunkCount()]);
    return shared + own;
  }

  async liveRowIds(): Promise<number[]> {
    const [shared, own] = await Promise.all([this.base.liveRowIds(), this.local.liveRowIds()]);
    return [...shared.map(fromBase), ...own.map(fromLocal)].sort((a, b) => a - b);
  }

  async maxRowId(): Promise<number> {
    const [shared, own] = await Promise.all([this.base.maxRowId(), this.local.maxRowId()]);
    return Math.max(fromBase(shared), own === 0 ? 0 : fromLocal(own));
  }

  /** Files as searches see them; chunks and cached vectors of both layers; bytes of both. */
  /**
   * Files as searches see them (the shared layer's, less the shadowed, plus the local layer's own); chunks and cached
   * vectors of both layers; bytes of both. The shared layer's counts are read once per shared generation: a watcher
   * asks after every batch, and they do not move with local edits.
   */
  async stats(): Promise<CatalogStats> {
    const [shadow, generation, own] = await Promise.all([this.shadowed(), this.base.generation(), this.local.stats()]);
    if (this.sharedStats?.generation !== generation) this.sharedStats = { generation, stats: await this.base.stats() };
    const shared = this.sharedStats.stats;
    const shadowedShared = (await this.sharedFiles([...shadow.keys()])).size;
    const ownFiles = [...shadow.values()].filter((f) => f.contentHash !== HIDDEN_FILE_HASH).length;
    return {
      files: shared.files - shadowedShared + ownFiles, chunks: shared.chunks + own.chunks,
      cachedVectors: shared.cachedVectors + own.cachedVectors, dbBytes: shared.dbBytes + own.dbBytes,
    };
  }

  async integrityCheck(): Promise<string[]> {
    const [shared, own] = await Promise.all([this.base.integrityCheck(), this.local.integrityCheck()]);
    return [...shared.map((p) => `shared index: ${p}`), ...own.map((p) => `local edits: ${p}`)];
  }

  async close(): Promise<void> {
    try {
      await this.local.close();
    } finally {
      await this.base.close();
    }
  }

  /** The shared layer's file rows of `paths` (one list read for many paths). */
  private async sharedFiles(paths: readonly string[]): Promise<Map<string, FileRow>> {
    if (paths.length >= LIST_BASE_FILES_FROM) {
      const wanted = new Set(paths);
      return new Map((await this.base.listFiles()).filter((f) => wanted.has(f.path)).map((f) => [f.path, f]));
    }
    const rows = await Promise.all(paths.map((p) => this.base.getFile(p)));
    return new Map(rows.flatMap((r) => (r === undefined ? [] : [[r.path, r] as const])));
  }

  /** The vectors a local write takes from the shared cache: texts neither given, queued nor cached locally. */
  private async vectorsToCopy(input: ReplaceFileInput): Promise<ReadonlyMap<string, Float32Array>> {
    const wanted = [...new Set(input.chunks.map((c) => c.hash))].filter((h) => !input.vectors.has(h) && !(input.pending?.has(h) ?? false));
    if (wanted.length === 0) return input.vectors;
    const own = await this.local.cachedVectors(wanted, input.revision);
    const fromShared = await this.base.cachedVectors(wanted.filter((h) => !own.has(h)), input.revision);
    return fromShared.size === 0 ? input.vectors : new Map([...input.vectors, ...fromShared]);
  }
}
