/** What the saver saves: a graph with a `save()` (HnswStore). */
export interface SavableStore {
  save(): Promise<void>;
}

/** Saves a vector store at most once per delay, however many changes arrive. */
export interface DebouncedSaver {
  /** Asks for a save within `delayMs` of the first unsaved request. */
  schedule(): void;
  /**
   * Saves now (a no-op when the store is clean) and waits for it. A background save that failed is
   * retried here, so a persistent failure (disk full) surfaces as this call's rejection.
   */
  flush(): Promise<void>;
  /** Drops a pending timer without saving. */
  cancel(): void;
}

/** Options of `createDebouncedSaver`. */
export interface DebouncedSaverOptions {
  /** Longest time between the first unsaved change and its save, in ms. */
  readonly delayMs: number;
  /** Runs right before each save, e.g. `() => store.setGeneration(catalog.generation())`. */
  readonly beforeSave?: () => void;
  /** Told about a failed background save; `flush()` retries it and rejects if it fails again. */
  readonly onError: (error: unknown) => void;
  /** How a timer-triggered save runs, e.g. under the write lock (default: it just saves). */
  readonly backgroundSave?: (save: () => Promise<void>) => Promise<void>;
}

/**
 * Wraps `store.save()` so callers can `schedule()` after every change and never save per insert.
 * The timer starts at the first request and is not pushed back by later ones, so a steady stream of
 * changes still gets saved every `delayMs`. The timer is unref'd: call `flush()` before exiting.
 */
export function createDebouncedSaver(store: SavableStore, options: DebouncedSaverOptions): DebouncedSaver {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const save = (): Promise<void> => {
    options.beforeSave?.();
    return store.save();
  };
  const inBackground = options.backgroundSave ?? ((run: () => Promise<void>) => run());

  return {
    schedule() {
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        running = inBackground(save);
        running.catch((error: unknown) => options.onError(error));
      }, options.delayMs);
      timer.unref();
    },
    async flush() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      // A failed background save is retried by the save below, which reports its own outcome.
      await running.catch(() => undefined);
      running = save();
      await running;
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
