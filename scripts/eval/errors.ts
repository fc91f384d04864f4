/** A problem with how the eval script was called (exit code 2). */
export class EvalUsageError extends Error {
  override readonly name = 'EvalUsageError';
}

/** A problem with the dataset, the corpus or the environment (exit code 1). */
export class EvalInputError extends Error {
  override readonly name = 'EvalInputError';
  /** The file or option the problem is about. */
  readonly subject: string;

  constructor(message: string, subject: string, options?: { cause?: unknown }) {
    super(message, options);
    this.subject = subject;
  }
}
