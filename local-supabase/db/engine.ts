// One interface over the two Postgres engines the local backend can run on.
export interface SqlResult<T = Record<string, unknown>> {
  rows: T[];
  /** Rows affected by INSERT/UPDATE/DELETE, rows returned otherwise. */
  rowCount: number;
}

export interface Sql {
  /** One statement with bound parameters ($1, $2 ...). */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<SqlResult<T>>;
  /** A script of several statements, without parameters (migrations, seed). */
  exec(script: string): Promise<void>;
}

export interface Engine extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /** Runs fn inside BEGIN … COMMIT on one connection; ROLLBACK when fn throws. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Postgres error fields the HTTP layers map to Supabase's error bodies. */
export interface PgError extends Error {
  code?: string;
  detail?: string;
  hint?: string;
}

export function isPgError(e: unknown): e is PgError {
  return e instanceof Error && typeof (e as PgError).code === 'string';
}
