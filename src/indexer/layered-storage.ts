import type { IndexStorage, WriteHold } from '../store/index-storage.js';
import type { IndexFilters } from '../stored-filters.js';
import { OverlayCatalog } from '../store/overlay/overlay-catalog.js';
import { OverlayVectorStore } from '../store/overlay/overlay-vector-store.js';

/** A store as the layers above see it, with the name messages give it (`repo@ref on <server>`). */
export interface NamedStorage extends IndexStorage {
  readonly label: string;
}

/**
 * A layer over a base behind the {@link IndexStorage} port (see OverlayCatalog): the base is only read; writes, the
 * write hold and repairs are the top layer's. A branch namespace over its base namespace in the shared store, and a
 * developer's local edits over a shared namespace, are both this.
 */
export class LayeredStorage implements NamedStorage {
  private view: { catalog: OverlayCatalog; vectors: OverlayVectorStore };

  constructor(readonly base: IndexStorage, readonly top: IndexStorage, readonly label: string) {
    this.view = this.viewOver();
  }

  get catalog(): OverlayCatalog {
    return this.view.catalog;
  }

  get vectors(): OverlayVectorStore {
    return this.view.vectors;
  }

  holdForWrite(options: { readonly waitMs: number }): Promise<WriteHold> {
    return this.top.holdForWrite(options);
  }

  /** The top layer's globs, else the base's: a developer's layer and a branch without globs of its own follow their base. */
  async sharedGlobs(): Promise<IndexFilters | null | undefined> {
    return (await this.top.sharedGlobs()) ?? this.base.sharedGlobs();
  }

  async storeSharedGlobs(filters: IndexFilters | null): Promise<void> {
    await this.top.storeSharedGlobs(filters);
  }

  /** Damage of the top layer is repaired as its store repairs it; the caller's full pass refills it. */
  async replaceDamaged(error: unknown, note: (message: string) => void): Promise<boolean> {
    if (!(await this.top.replaceDamaged(error, note))) return false;
    this.view = this.viewOver();
    return true;
  }

  async close(): Promise<void> {
    try {
      await this.top.close();
    } finally {
      await this.base.close();
    }
  }

  private viewOver(): { catalog: OverlayCatalog; vectors: OverlayVectorStore } {
    const catalog = new OverlayCatalog(this.base.catalog, this.top.catalog);
    return { catalog, vectors: new OverlayVectorStore({ catalog, base: this.base.vectors, local: this.top.vectors }) };
  }
}
