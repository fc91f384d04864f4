import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MultiLanguageChunker } from '../../../src/chunk/multi-language-chunker.js';
import { detectLanguage } from '../../../src/discover/languages-by-extension.js';
import type { Chunk } from '../../../src/types.js';
import { outline } from './chunk-helpers.js';

// Issue 17 (chunker throughput): the chunker is made faster without changing what it makes. Every fixture file is
// chunked at two budgets (256 tokens, the default, and 128, which splits the bigger symbols into parts) and each chunk
// record is pinned by its outline and a digest of the whole record (text, embedText, id, hash, signature, part...),
// so a speed-up that moves one byte of any chunk fails here. After a deliberate change of the output, regenerate
// with `npx vitest run test/unit/chunk/exact-output.test.ts -u`, read the diff, and bump CHUNKER_VERSION
// (src/chunk/chunker-version.ts) when records of existing files changed, so existing indexes are chunked again.

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const FOLDERS = ['chunk', 'polyglot-repo', 'retrieval-repo'];

/** Every fixture file under the folders, as [path the chunker sees, absolute path]; `.txt` wrappers unwrapped. */
function fixtureFiles(): Array<[string, string]> {
  const files: Array<[string, string]> = [];
  for (const folder of FOLDERS) {
    for (const rel of readdirSync(path.join(FIXTURES, folder), { recursive: true, encoding: 'utf8' }).sort()) {
      const abs = path.join(FIXTURES, folder, rel);
      if (!rel.includes('.')) continue;
      const shown = `${folder}/${rel.split(path.sep).join('/')}`.replace(/\.(\w+)\.txt$/, '.$1');
      files.push([shown, abs]);
    }
  }
  return files;
}

/** One line per chunk: its outline and the first 16 hex digits of the sha256 of the whole record. */
function pin(chunks: readonly Chunk[]): string[] {
  const lines = outline(chunks);
  return chunks.map((c, i) => `${lines[i]} ${createHash('sha256').update(JSON.stringify(c)).digest('hex').slice(0, 16)}`);
}

describe('chunk records of the fixtures, exactly', () => {
  it('every fixture at 256 and 128 tokens gives the pinned records', async () => {
    const pinned: Record<string, Record<string, string[]>> = {};
    for (const maxTokens of [256, 128]) {
      const chunker = new MultiLanguageChunker({ maxTokens });
      const files = fixtureFiles().map(([shown, abs]) => ({ shown, language: detectLanguage(shown), content: readFileSync(abs, 'utf8') }));
      await chunker.prepare([...new Set(files.flatMap((f) => (f.language === null ? [] : [f.language])))]);
      const byFile: Record<string, string[]> = {};
      for (const f of files) {
        if (f.language === null) continue;
        const { chunks, warnings } = chunker.chunk({ path: f.shown, language: f.language, content: f.content });
        byFile[f.shown] = [...pin(chunks), ...warnings.map((w) => `warning: ${w}`)];
      }
      pinned[`maxTokens ${maxTokens}`] = byFile;
    }
    await expect(JSON.stringify(pinned, null, 1) + '\n').toMatchFileSnapshot('../../fixtures/chunk-records.json');
  });
});
