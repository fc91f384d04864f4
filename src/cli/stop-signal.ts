/**
 * Resolves on the first SIGINT or SIGTERM. Call it before printing a ready line: a client that signals as soon
 * as it reads that line must find the handlers in place.
 */
export function stopSignal(): Promise<void> {
  return new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
