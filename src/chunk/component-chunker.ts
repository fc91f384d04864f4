import type { Chunk, Language } from '../types.js';
import type { FileFacts } from './chunk-record.js';
import type { ChunkInput, ChunkResult, Chunker } from './chunker.js';
import { finishChunks } from './finish-chunks.js';
import { SourceText } from './source-text.js';
import type { CountTokens } from './token-estimate.js';
import { estimateTokens } from './token-estimate.js';

/** `<script ...>` ... `</script>` blocks of a single-file component (Vue, Svelte). */
const SCRIPT_BLOCK = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;

/** The script language a block's `lang` attribute names (TypeScript unless it says otherwise and no block is TS). */
function scriptLanguage(attributes: readonly string[]): Language {
  const langs = attributes.map((a) => /\blang\s*=\s*["']?([\w-]+)/i.exec(a)?.[1]?.toLowerCase() ?? 'js');
  if (langs.includes('tsx')) return 'tsx';
  if (langs.includes('ts') || langs.includes('typescript')) return 'typescript';
  if (langs.includes('jsx')) return 'jsx';
  return 'javascript';
}

/** Replaces every char but line breaks with a space, so offsets and line numbers stay where they were. */
function blank(text: string): string {
  return text.replace(/[^\n\r]/g, ' ');
}

/**
 * Single-file components (Vue, Svelte): the `<script>` blocks are chunked as TypeScript/JavaScript symbols at
 * their real lines; the template and styles around them become the file's module chunks. Never throws.
 */
export class ComponentChunker implements Chunker {
  readonly languages: readonly Language[] = ['vue', 'svelte'];
  private readonly count: CountTokens;

  constructor(
    private readonly scripts: Chunker,
    private readonly options: { readonly maxTokens: number; readonly countTokens?: CountTokens },
  ) {
    this.count = options.countTokens ?? estimateTokens;
  }

  chunk(input: ChunkInput): ChunkResult {
    const attributes: string[] = [];
    const source = new SourceText(input.content);
    /** Lines of the script blocks, tags included: the script chunker covers them (imports dropped, as in .ts files). */
    const scriptLines: Array<[number, number]> = [];
    let masked = '';
    let last = 0;
    for (const match of input.content.matchAll(SCRIPT_BLOCK)) {
      const bodyStart = match.index + match[0].indexOf('>') + 1;
      const bodyEnd = bodyStart + (match[2] ?? '').length;
      attributes.push(match[1] ?? '');
      scriptLines.push([source.lineOf(match.index), source.lineOf(match.index + match[0].length - 1)]);
      masked += blank(input.content.slice(last, bodyStart)) + input.content.slice(bodyStart, bodyEnd);
      last = bodyEnd;
    }
    masked += blank(input.content.slice(last));
    const language = scriptLanguage(attributes);
    const scripted = attributes.length === 0 ? { chunks: [], warnings: [] } : this.scripts.chunk({ path: input.path, language, content: masked });
    const file: FileFacts = { path: input.path, language: input.language, source };
    const own: Chunk[] = scripted.chunks.map((c) => ({ ...c, language: input.language }));
    // The template and styles: every line no script chunk covers, as module chunks of the file.
    const chunks = finishChunks(file, own, scriptLines, { maxTokens: this.options.maxTokens, count: this.count });
    return { chunks, warnings: scripted.warnings };
  }
}
