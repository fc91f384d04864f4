import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { StoreSettings } from '../config.js';
import type { ModelSpec } from '../embed/models.js';
import { ConfigError, IndexMismatchError } from '../errors.js';
import { catalogPath } from '../store/catalog-open.js';
import type { IndexStorage } from '../store/index-storage.js';
import { makeIndexFolder } from './index-folder.js';
import { isWritableLocation } from './index-location.js';
import { isLayerKept, keptLayer } from './layer-keepers.js';
import { LayeredStorage } from './layered-storage.js';
import { openPostgresStorage } from './postgres-storage.js';
import { openSqliteStorage, type SqliteStorage } from './sqlite-storage.js';

/** The folder under a root's index folder that holds its local layers, one per shared namespace. */
export const LOCAL_EDITS_DIR = 'local-edits';

/** Options of {@link openSharedReader}. */
export interface OpenSharedReaderOptions {
  readonly store: StoreSettings;
  readonly root: string;
  /** The root's local index folder (under the cache dir): its local layers live below it. */
  readonly indexDir: string;
  readonly model: ModelSpec;
  readonly lockWaitMs: number;
  /**
   * Keep this working tree's edits in a local layer that this process writes (`watch`, `mcp`): true. False reads the
   * local layer another process keeps, when there is one, and writes nothing.
   */
  readonly localEdits: boolean;
  readonly note: (message: string) => void;
}

/**
 * Opens a namespace of a shared store for reading, under the local layer of this working tree's own edits when one is
 * kept (a LayeredStorage, see OverlayCatalog): written when `localEdits`, read when another process keeps it, left out otherwise.
 * @throws what openPostgresStorage throws (StoreUnavailableError, ConfigError for a namespace never indexed, ...).
 */
export async function openSharedReader(o: OpenSharedReaderOptions): Promise<{ storage: IndexStorage; writable: boolean; label: string }> {
  const shared = await openPostgresStorage({ store: o.store, root: o.root, role: 'reader', model: o.model, rebuild: false, note: o.note });
  try {
    const label = shared.label;
    const dir = localLayerDir(o.indexDir, label);
    const revision = (await shared.catalog.getManifest())?.revision ?? o.model.onnxSha256;
    if (!o.localEdits) {
      const local = await readKeptLayer({ ...o, dir, revision });
      return { storage: local === null ? shared : new LayeredStorage(shared, local, label), writable: false, label };
    }
    await makeIndexFolder(dir);
    if (!isWritableLocation(dir)) {
      throw new ConfigError(`Cannot keep a local layer of your edits at ${dir}: the folder is read-only. Pass a writable --cache-dir (or set CODESCOUT_CACHE_DIR).`, 'cacheDir');
    }
    const local = await keptLayer(await openLocalLayer({ ...o, dir, revision }), dir);
    return { storage: new LayeredStorage(shared, local, label), writable: true, label };
  } catch (error) {
    await shared.close();
    throw error;
  }
}

/** The local layer's folder for one namespace: named by a hash of the namespace (the label holds no secret). */
export function localLayerDir(indexDir: string, namespaceLabel: string): string {
  return path.join(indexDir, LOCAL_EDITS_DIR, createHash('sha256').update(namespaceLabel).digest('hex').slice(0, 16));
}

/**
 * The local layer for a reader that does not keep it: only while a live watch or mcp keeps it current, and only when
 * it was written for the shared layer's model; otherwise null (the shared index alone), said in one line.
 */
async function readKeptLayer(o: OpenSharedReaderOptions & { dir: string; revision: string }): Promise<SqliteStorage | null> {
  if (!existsSync(catalogPath(o.dir))) return null;
  if (!(await isLayerKept(o.dir))) {
    o.note(`Your local edits layer (${o.dir}) is not kept current by a running watch or mcp; reading the shared index alone. Run codescout watch --store ... to search your edits.`);
    return null;
  }
  try {
    return await openSqliteStorage({ indexDir: o.dir, root: o.root, model: o.model, revision: o.revision, lockWaitMs: o.lockWaitMs, readonly: true, rebuild: false, note: o.note });
  } catch (error) {
    if (!(error instanceof IndexMismatchError)) throw error;
    o.note(`Your local edits layer (${o.dir}) was written for another model; reading the shared index alone until watch --store rebuilds it.`);
    return null;
  }
}

/**
 * Opens the local layer with the shared layer's model revision. A layer written for another model is derived data
 * of this machine only: a writer drops it and starts afresh (its next full pass refills it from the working tree).
 */
async function openLocalLayer(o: OpenSharedReaderOptions & { dir: string; revision: string }): Promise<SqliteStorage> {
  const open = (): Promise<SqliteStorage> => openSqliteStorage({
    indexDir: o.dir, root: o.root, model: o.model, revision: o.revision, lockWaitMs: o.lockWaitMs, readonly: false, rebuild: false, note: o.note,
  });
  let local: SqliteStorage;
  try {
    local = await open();
  } catch (error) {
    if (!(error instanceof IndexMismatchError)) throw error;
    await rm(o.dir, { recursive: true, force: true });
    await makeIndexFolder(o.dir);
    local = await open();
  }
  try {
    const manifest = await local.catalog.getManifest();
    if (manifest !== null && manifest.revision !== o.revision) await local.catalog.clear();
    if (manifest === null || manifest.revision !== o.revision) {
      await local.catalog.initManifest({ model: o.model.id, dimension: o.model.dimension, revision: o.revision, root: o.root });
    }
    return local;
  } catch (error) {
    await local.close();
    throw error;
  }
}
