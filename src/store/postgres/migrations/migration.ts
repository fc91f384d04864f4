/** One step of the PostgreSQL schema. Applied in order, each in its own transaction, recorded in `schema_migrations`. */
export interface Migration {
  /** 1, 2, 3, ...: never reused or renumbered once released. */
  readonly version: number;
  readonly name: string;
  /** The statements, run as one multi-statement query inside the migration's transaction. */
  readonly sql: string;
}
