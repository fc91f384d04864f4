import type { Chunk, Language } from '../types.js';
import { buildChunk, type ChunkDraft, type FileFacts } from './chunk-record.js';
import type { ChunkInput, ChunkResult, Chunker } from './chunker.js';
import { codeBudget, fileBaseName, splitSpanByLines } from './line-window-chunker.js';
import { SourceText, type Span } from './source-text.js';
import { estimateTokens, type CountTokens } from './token-estimate.js';

const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** A heading: where its section starts, its level and its text. */
interface Heading {
  readonly line: number;
  readonly level: number;
  readonly text: string;
}

function cleanHeading(text: string): string {
  return text.replace(/[*_`]/g, '').trim().slice(0, 200);
}

/** Finds ATX and setext headings outside fenced code and front matter. Lines are 1-based. */
function findHeadings(source: SourceText): Heading[] {
  const headings: Heading[] = [];
  let fence: string | null = null;
  let line = 1;
  const lineText = (n: number): string => source.text.slice(source.lineStart(n), source.lineEnd(n));
  if (lineText(1) === '---') {
    for (line = 2; line <= source.lineCount && lineText(line) !== '---'; line += 1);
    line += 1;
  }
  let previousBlank = true;
  for (; line <= source.lineCount; line += 1) {
    const text = lineText(line);
    const fenceMatch = FENCE.exec(text);
    if (fence !== null) {
      if (fenceMatch !== null && fenceMatch[1]?.[0] === fence[0] && (fenceMatch[1]?.length ?? 0) >= fence.length) fence = null;
      previousBlank = false;
      continue;
    }
    if (fenceMatch !== null) {
      fence = fenceMatch[1] ?? '```';
      previousBlank = false;
      continue;
    }
    const atx = ATX_HEADING.exec(text);
    const next = line < source.lineCount ? lineText(line + 1) : '';
    const setext = SETEXT_UNDERLINE.exec(next);
    if (atx !== null) {
      headings.push({ line, level: atx[1]?.length ?? 1, text: cleanHeading(atx[2] ?? '') });
    } else if (setext !== null && previousBlank && text.trim() !== '' && !/^\s*([-*+>]|\d+[.)])\s/.test(text)) {
      headings.push({ line, level: setext[1]?.startsWith('=') ? 1 : 2, text: cleanHeading(text) });
      line += 1;
    }
    previousBlank = text.trim() === '';
  }
  return headings;
}

/** Splits a section at blank lines into parts within the budget; lines and chars as last resort. */
function splitSection(source: SourceText, span: Span, budget: number, count: CountTokens): Span[] {
  if (count(source.slice(span)) <= budget) return [span];
  const parts: Span[] = [];
  let start = span.start;
  let used = 0;
  const paragraphs = source.slice(span).split(/(?<=\n)(?=[ \t]*\r?\n)/);
  let offset = span.start;
  for (const paragraph of paragraphs) {
    const tokens = count(paragraph);
    const end = offset + paragraph.length;
    if (tokens > budget) {
      if (offset > start) parts.push({ start, end: offset });
      parts.push(...splitSpanByLines(source, { start: offset, end }, budget, count));
      start = end;
      used = 0;
    } else if (used + tokens > budget) {
      parts.push({ start, end: offset });
      start = offset;
      used = tokens;
    } else {
      used += tokens;
    }
    offset = end;
  }
  if (span.end > start) parts.push({ start, end: span.end });
  return parts;
}

/**
 * Markdown chunker: one 'section' chunk per heading (symbol = heading text, parent = enclosing heading),
 * the text before the first heading as a section named after the file; big sections split at blank lines.
 */
export class MarkdownChunker implements Chunker {
  readonly languages: readonly Language[] = ['markdown'];
  private readonly count: CountTokens;

  constructor(private readonly options: { readonly maxTokens: number; readonly countTokens?: CountTokens }) {
    this.count = options.countTokens ?? estimateTokens;
  }

  /** Cuts a markdown file into heading sections; never throws. */
  chunk(input: ChunkInput): ChunkResult {
    const source = new SourceText(input.content);
    const file: FileFacts = { path: input.path, language: input.language, source };
    const headings = findHeadings(source);
    const chunks: Chunk[] = [];
    const stack: Heading[] = [];
    const emit = (draft: ChunkDraft, span: Span): void => {
      const budget = codeBudget(file, draft, this.options.maxTokens, this.count);
      const parts = splitSection(source, span, budget, this.count).map((p) => source.tidy(p)).filter((p) => p.end > p.start);
      parts.forEach((part, index) => {
        const partInfo = parts.length > 1 ? { index, count: parts.length } : undefined;
        chunks.push(buildChunk(file, draft, part, { part: partInfo, withContext: index > 0 }));
      });
    };
    const firstLine = headings[0]?.line ?? source.lineCount + 1;
    if (firstLine > 1) {
      const end = firstLine > source.lineCount ? source.text.length : source.lineStart(firstLine);
      emit({ kind: 'section', symbol: fileBaseName(input.path), parent: null, signature: '', doc: '' }, { start: 0, end });
    }
    headings.forEach((heading, i) => {
      while (stack.length > 0 && (stack[stack.length - 1] as Heading).level >= heading.level) stack.pop();
      const parent = stack[stack.length - 1]?.text ?? null;
      stack.push(heading);
      const next = headings[i + 1];
      const start = source.lineStart(heading.line);
      const end = next === undefined ? source.text.length : source.lineStart(next.line);
      const signature = source.text.slice(start, source.lineEnd(heading.line)).trim().slice(0, 200);
      emit({ kind: 'section', symbol: heading.text || fileBaseName(input.path), parent, signature, doc: '' }, { start, end });
    });
    return { chunks, warnings: [] };
  }
}
