/** A half-open range of UTF-16 offsets into a file's text. */
export interface Span {
  readonly start: number;
  readonly end: number;
}

function isBlankCode(code: number): boolean {
  return code === 32 || code === 9 || code === 13 || code === 10 || code === 12 || code === 11 || code === 0xfeff;
}

/** A file's text with a line table: maps offsets to 1-based lines (only `\n` ends a line; CRLF counts once). */
export class SourceText {
  readonly lineStarts: number[] = [0];

  constructor(readonly text: string) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) this.lineStarts.push(i + 1);
  }

  /** Number of lines (a trailing newline does not open a new line). */
  get lineCount(): number {
    const n = this.lineStarts.length;
    return n > 1 && this.lineStarts[n - 1] === this.text.length ? n - 1 : n;
  }

  /** 1-based line holding the char at `offset`. */
  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.lineStarts[mid] as number) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Offset of the first char of a 1-based line. */
  lineStart(line: number): number {
    return this.lineStarts[Math.min(Math.max(line, 1), this.lineStarts.length) - 1] as number;
  }

  /** Offset just past a 1-based line's content (before its `\r\n` / `\n`). */
  lineEnd(line: number): number {
    const next = line < this.lineStarts.length ? (this.lineStarts[line] as number) - 1 : this.text.length;
    return next > 0 && this.text.charCodeAt(next - 1) === 13 && next - 1 >= this.lineStart(line) ? next - 1 : next;
  }

  /** The span without leading/trailing whitespace, then widened to whole lines where only blanks remain. */
  tidy(span: Span): Span {
    let { start, end } = span;
    while (start < end && isBlankCode(this.text.charCodeAt(start))) start += 1;
    while (end > start && isBlankCode(this.text.charCodeAt(end - 1))) end -= 1;
    if (start === end) return { start, end };
    const lineStart = this.lineStart(this.lineOf(start));
    if (this.isBlank(lineStart, start)) start = lineStart;
    return { start, end };
  }

  /** True when the text in [start, end) is only whitespace. */
  isBlank(start: number, end: number): boolean {
    for (let i = start; i < end; i += 1) if (!isBlankCode(this.text.charCodeAt(i))) return false;
    return true;
  }

  slice(span: Span): string {
    return this.text.slice(span.start, span.end);
  }
}
