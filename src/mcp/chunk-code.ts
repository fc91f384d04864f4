import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { decodeSource } from '../chunk/decode-source.js';
import { readInsideRoot } from '../discover/open-regular-file.js';
import type { SecretPolicy } from '../discover/secret-policy.js';
import type { ResultChunk, ResultFile } from '../retrieve/retrieval-result.js';

/**
 * Reads the files of a retrieval result and returns a lookup of each chunk's code (its lines, as on disk now).
 * The index is kept live, so the disk and the line ranges agree except during an edit the watcher has not yet
 * applied. A file that cannot be read yields no code (undefined), never an error: the paths and ranges still help.
 * The same read rule as indexing applies: a file since replaced by a link out of the root, or by a FIFO, is not
 * read (the disk may have changed in any way since the index last saw it), and neither is a file that now holds a
 * secret (the secret policy applies to what is returned as to what is indexed: the watcher may not have caught up,
 * or there is none).
 */
export async function loadChunkCode(o: {
  root: string;
  secrets: SecretPolicy;
  files: readonly ResultFile[];
}): Promise<(path: string, chunk: ResultChunk) => string | undefined> {
  const { root, files } = o;
  const lines = new Map<string, string[] | undefined>();
  const realRoot = await realpath(root).catch(() => undefined);
  if (realRoot !== undefined) {
    await Promise.all(
      [...new Set(files.map((f) => f.path))].map(async (rel) => {
        const abs = path.resolve(root, rel);
        if (path.relative(root, abs).startsWith('..')) return; // index paths are relative; refuse anything else
        const read = await readInsideRoot({ realRoot, absPath: abs });
        if ('refused' in read) return;
        const text = decodeSource(read.bytes);
        if (o.secrets.reasonForText(rel, text) !== null) return;
        lines.set(rel, text.replace(/\r\n/g, '\n').split('\n'));
      }),
    );
  }
  return (rel, chunk) => {
    const all = lines.get(rel);
    if (!all || chunk.startLine > all.length) return undefined;
    return all.slice(chunk.startLine - 1, chunk.endLine).join('\n');
  };
}
