import type { WatchBatch, IndexWatcher } from '../../src/watch/watch-index.js';

/** Resolves with the first batch that satisfies `accept`; rejects after `timeoutMs` (never a fixed sleep). */
export function nextBatch(watcher: IndexWatcher, accept: (b: WatchBatch) => boolean = () => true, timeoutMs = 20_000): Promise<WatchBatch> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      watcher.off('updated', onBatch);
      reject(new Error(`no matching watch batch within ${timeoutMs} ms`));
    }, timeoutMs);
    const onBatch = (b: WatchBatch): void => {
      if (!accept(b)) return;
      clearTimeout(timer);
      watcher.off('updated', onBatch);
      resolve(b);
    };
    watcher.on('updated', onBatch);
  });
}

/** Polls an async condition until it holds; rejects after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T>, accept: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (accept(v)) return v;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
