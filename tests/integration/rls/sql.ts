// Runs SQL as a given caller exactly as the API does per request (see asCaller in local-supabase/http.ts):
// a transaction with `role` and `request.jwt.claims` set, always rolled back.
import type { Engine } from '../../../local-supabase/db/engine.ts';

export type SqlOutcome<T = Record<string, unknown>> = { rows: T[]; error: null } | { rows: null; error: string };

class Rollback extends Error {
  constructor(readonly rows: unknown[]) {
    super('rollback');
  }
}

/** uid null: anon. Returns the rows of the last query, or the error message. */
export async function runAs<T = Record<string, unknown>>(
  engine: Engine,
  uid: string | null,
  sql: string,
  params: unknown[] = [],
): Promise<SqlOutcome<T>> {
  try {
    await engine.transaction(async (tx) => {
      const claims = uid ? { sub: uid, role: 'authenticated', aud: 'authenticated' } : { role: 'anon' };
      await tx.query("select set_config('role', $1, true), set_config('request.jwt.claims', $2, true)", [
        uid ? 'authenticated' : 'anon',
        JSON.stringify(claims),
      ]);
      const r = await tx.query<T>(sql, params);
      throw new Rollback(r.rows);
    });
  } catch (e) {
    if (e instanceof Rollback) return { rows: e.rows as T[], error: null };
    return { rows: null, error: (e as Error).message };
  }
  throw new Error('unreachable');
}

/** Runs SQL as the superuser and rolls back. */
export async function runAsOwner<T = Record<string, unknown>>(engine: Engine, sql: string, params: unknown[] = []): Promise<SqlOutcome<T>> {
  try {
    await engine.transaction(async (tx) => {
      const r = await tx.query<T>(sql, params);
      throw new Rollback(r.rows);
    });
  } catch (e) {
    if (e instanceof Rollback) return { rows: e.rows as T[], error: null };
    return { rows: null, error: (e as Error).message };
  }
  throw new Error('unreachable');
}

/** Runs fn in a transaction as the superuser, returns its result and rolls everything back. */
export async function inRolledBackTx<T>(engine: Engine, fn: (tx: import('../../../local-supabase/db/engine.ts').Sql) => Promise<T>): Promise<T> {
  try {
    await engine.transaction(async (tx) => {
      throw new Rollback([await fn(tx)]);
    });
  } catch (e) {
    if (e instanceof Rollback) return e.rows[0] as T;
    throw e;
  }
  throw new Error('unreachable');
}
