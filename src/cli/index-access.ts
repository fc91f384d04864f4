import { openIndex, type CodeIndex, type OpenIndexOptions } from '../code-index.js';
import { printNotes } from './index-commands.js';
import type { CliIO } from './output.js';

/**
 * How a read-only command reaches its index: opened for this command and closed after it (in-process), or the one a
 * query server holds open (warm). The command's code is the same either way, so its output is too.
 */
export type IndexAccess = <T>(use: (index: CodeIndex) => Promise<T>) => Promise<T>;

/** Opens the index for one command, prints what opening repaired, and closes it after. */
export function openedIndex(io: CliIO, options: OpenIndexOptions): IndexAccess {
  return async (use) => {
    const index = await openIndex(options);
    try {
      printNotes(io, index);
      return await use(index);
    } finally {
      await index.close();
    }
  };
}

/** The index a server holds: used as it is, never closed (what opening repaired was told when the server opened it). */
export function heldIndex(index: CodeIndex): IndexAccess {
  return (use) => use(index);
}
