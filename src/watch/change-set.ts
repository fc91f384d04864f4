/** File-system events gathered between two batches: what changed and what went away (relative POSIX paths). */
export class PendingChanges {
  private readonly changed = new Set<string>();
  private readonly removed = new Set<string>();
  /** Set when the queue overflowed or ignore rules changed: the next batch is a full reconcile pass. */
  needsFullPass = false;

  constructor(private readonly maxPaths: number) {}

  /** Records an added or changed file. */
  change(path: string): void {
    this.removed.delete(path);
    this.add(this.changed, path);
  }

  /** Records a removed file or folder (everything below a folder goes with it). */
  remove(path: string): void {
    this.changed.delete(path);
    this.add(this.removed, path);
  }

  get isEmpty(): boolean {
    return this.changed.size === 0 && this.removed.size === 0 && !this.needsFullPass;
  }

  /** Hands over everything pending and starts empty. */
  take(): { changed: string[]; removed: string[]; fullPass: boolean } {
    const out = { changed: [...this.changed].sort(), removed: [...this.removed].sort(), fullPass: this.needsFullPass };
    this.changed.clear();
    this.removed.clear();
    this.needsFullPass = false;
    return out;
  }

  /**
   * Puts back a batch that could not be applied (the write lock stayed busy). Events recorded since it was taken
   * are newer and win: a path changed or removed since keeps its new state.
   */
  putBack(batch: { readonly changed: readonly string[]; readonly removed: readonly string[]; readonly fullPass: boolean }): void {
    const isNewer = (path: string): boolean => this.changed.has(path) || this.removed.has(path);
    for (const path of batch.changed) if (!isNewer(path)) this.add(this.changed, path);
    for (const path of batch.removed) if (!isNewer(path)) this.add(this.removed, path);
    if (batch.fullPass) this.needsFullPass = true;
  }

  private add(set: Set<string>, path: string): void {
    // Memory stays bounded: past the cap a full pass is cheaper than tracking every path.
    if (set.size >= this.maxPaths) {
      this.needsFullPass = true;
      return;
    }
    set.add(path);
  }
}
