import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { StoreSettings } from '../config.js';
import type { ModelSpec } from '../embed/models.js';
import { IndexMismatchError } from '../errors.js';
import { catalogPath } from '../store/catalog-open.js';
import type { IndexStorage } from '../store/index-storage.js';
import { makeIndexFolder } from './index-folder.js';
import { isWritableLocation } from './index-location.js';
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
    if (!o.localEdits && !existsSync(catalogPath(dir))) return { storage: shared, writable: false, label };
    if (o.localEdits) await makeIndexFolder(dir);
    const writable = o.localEdits && isWritableLocation(dir);
    const local = await openLocalLayer({ ...o, dir, writable, revision: (await shared.catalog.getManifest())?.revision ?? o.model.onnxSha256 });
    return { storage: new LayeredStorage(shared, local, label), writable, label };
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
 * Opens the local layer with the shared layer's model revision. A layer written for another model is derived data
 * of this machine only: a writer drops it and starts afresh (its next full pass refills it from the working tree).
 */
async function openLocalLayer(o: OpenSharedReaderOptions & { dir: string; writable: boolean; revision: string }): Promise<SqliteStorage> {
  const open = (): Promise<SqliteStorage> => openSqliteStorage({
    indexDir: o.dir, root: o.root, model: o.model, revision: o.revision, lockWaitMs: o.lockWaitMs, readonly: !o.writable, rebuild: false, note: o.note,
  });
  let local: SqliteStorage;
  try {
    local = await open();
  } catch (error) {
    if (!(error instanceof IndexMismatchError) || !o.writable) throw error;
    await rm(o.dir, { recursive: true, force: true });
    await makeIndexFolder(o.dir);
    local = await open();
  }
  if (!o.writable) return local;
  const manifest = await local.catalog.getManifest();
  if (manifest !== null && manifest.revision !== o.revision) await local.catalog.clear();
  if (manifest === null || manifest.revision !== o.revision) {
    await local.catalog.initManifest({ model: o.model.id, dimension: o.model.dimension, revision: o.revision, root: o.root });
  }
  return local;
}
