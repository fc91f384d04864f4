/**
 * Typed errors. Each says what happened, to what, and what to do next, keeps its context as fields,
 * and keeps `cause`. `exitCode` is what the CLI exits with (1 = runtime failure, 2 = bad usage).
 */
export class CodeIndexError extends Error {
  /** Process exit code the CLI uses for this error. */
  readonly exitCode: number = 1;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A bad option, path or argument supplied by the caller. */
export class ConfigError extends CodeIndexError {
  override readonly exitCode = 2;
  constructor(message: string, readonly option?: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The embedding model could not be provisioned or loaded. */
export class ModelLoadError extends CodeIndexError {
  override readonly exitCode = 3;
  constructor(message: string, readonly model: string, readonly path?: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** The index on disk was written by another model, dimension or schema. */
export class IndexMismatchError extends CodeIndexError {
  override readonly exitCode = 4;
  constructor(message: string, readonly indexDir: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Another process holds the index's write lock. */
export class IndexLockedError extends CodeIndexError {
  override readonly exitCode = 5;
  constructor(message: string, readonly lockPath: string, readonly pid: number) {
    super(message);
  }
}

/** The index on disk is damaged beyond automatic repair. */
export class IndexCorruptError extends CodeIndexError {
  override readonly exitCode = 6;
  constructor(message: string, readonly path: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** A file could not be parsed (the chunker falls back to line windows and reports it). */
export class ParseError extends CodeIndexError {
  constructor(message: string, readonly path: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** An operation was cancelled through its AbortSignal. */
export class AbortError extends CodeIndexError {
  override readonly exitCode = 130;
  constructor(message = 'Operation aborted') {
    super(message);
  }
}

/** An outside judge (a `--judge-cmd` command) failed, timed out, or answered with something that is not a judgement. */
export class JudgeError extends CodeIndexError {
  override readonly exitCode = 7;
  constructor(message: string, readonly command: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
