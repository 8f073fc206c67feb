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

/** One statement whose parameters are all text, written `$n::text` (as the REST layer builds them). */
export interface TextStatement {
  text: string;
  params: (string | null)[];
}

export type Verdict = 'commit' | 'rollback';

export interface Engine extends Sql {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs fn inside BEGIN … COMMIT on one connection; ROLLBACK when fn throws. `settings` are set first
   * with set_config(name, value, true), as for runStatement: a request's role, claims and
   * statement_timeout, which then bounds each of fn's statements.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>, settings?: Record<string, string>): Promise<T>;
  /**
   * One API request's transaction: sets `settings` with set_config(name, value, true) (role, JWT
   * claims, ...), runs `statement`, and commits, or does what `decide` says after seeing the result
   * (a throw rolls back). The whole of it goes to the database as ONE script, so PostgreSQL answers a
   * read in one round trip instead of four (begin, settings, statement, commit); `decide` adds a second.
   * A `statement_timeout` among the settings cancels the statement past it (57014) on both engines.
   */
  runStatement<T>(settings: Record<string, string>, statement: TextStatement, decide?: (result: SqlResult<T>) => Verdict): Promise<SqlResult<T>>;
  close(): Promise<void>;
}

/** A SQL string literal of `value`, or NULL (standard_conforming_strings is on, as everywhere). */
export function textLiteral(value: string | null): string {
  if (value === null) return 'NULL';
  // A NUL cannot travel in a query string; as a bound parameter it fails the same way.
  if (value.includes('\0')) throw Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code: '22021' });
  return `'${value.replaceAll("'", "''")}'`;
}

/** `select set_config(...)` for request settings, every value a literal. */
export function settingsSql(settings: Record<string, string>): string {
  const calls = Object.entries(settings).map(([name, value]) => `set_config(${textLiteral(name)}, ${textLiteral(value)}, true)`);
  return `select ${calls.join(', ')}`;
}

/**
 * The statement with each `$n` replaced by its value as a literal. Our SQL writes every parameter
 * `$n::text`, so `'value'::text` means exactly what the bound parameter meant. Quoted literals and
 * identifiers are skipped, so only real placeholders change.
 */
export function inlineParams({ text, params }: TextStatement): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < text.length && !(text[j] === c && text[j + 1] !== c)) j += text[j] === c ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '$' && /[0-9]/.test(text[i + 1] ?? '')) {
      let j = i + 1;
      while (/[0-9]/.test(text[j] ?? '')) j++;
      const n = Number(text.slice(i + 1, j));
      if (n < 1 || n > params.length) throw new Error(`no value for parameter $${n}`);
      out += textLiteral(params[n - 1]);
      i = j;
    } else {
      out += c;
      i++;
    }
  }
  return out;
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
