import type { SourceText } from './source-text.js';
import { estimateTokens, estimateTokensIn, type CountTokens } from './token-estimate.js';

/**
 * Token counts of spans of one file in O(line length): whole lines come from prefix sums of
 * per-line counts, partial first/last lines are counted directly. Per-line counts have the
 * counter's fixed cost (e.g. [CLS]/[SEP], measured as `count('')`) removed and added back once.
 */
export class SpanTokens {
  private prefix: Float64Array | null = null;
  private readonly fixedCost: number;
  /** Tokens of the text in [start, end): the built-in estimate counts in place, another counter gets the slice. */
  private readonly countRange: (start: number, end: number) => number;

  constructor(
    private readonly source: SourceText,
    count: CountTokens,
  ) {
    this.fixedCost = count('');
    const { text } = source;
    this.countRange = count === estimateTokens ? (start, end) => estimateTokensIn(text, start, end) : (start, end) => count(text.slice(start, end));
  }

  /** Tokens of the text in [start, end). */
  tokens(start: number, end: number): number {
    if (end <= start) return this.fixedCost;
    const { source } = this;
    const first = source.lineOf(start);
    const last = source.lineOf(end - 1);
    if (last - first < 2) return this.countRange(start, end);
    const prefix = this.linePrefix();
    const head = this.countRange(start, source.lineStart(first + 1)) - this.fixedCost;
    const tail = this.countRange(source.lineStart(last), end) - this.fixedCost;
    const middle = (prefix[last - 1] as number) - (prefix[first] as number);
    return head + middle + tail + this.fixedCost;
  }

  /** prefix[k] = tokens of lines 1..k without the fixed cost. */
  private linePrefix(): Float64Array {
    if (this.prefix !== null) return this.prefix;
    const { source } = this;
    const lines = source.lineStarts.length;
    const prefix = new Float64Array(lines + 1);
    for (let line = 1; line <= lines; line += 1) {
      const start = source.lineStart(line);
      const end = line < lines ? source.lineStart(line + 1) : source.text.length;
      prefix[line] = (prefix[line - 1] as number) + this.countRange(start, end) - this.fixedCost;
    }
    this.prefix = prefix;
    return prefix;
  }
}
