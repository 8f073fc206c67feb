// A real PostgreSQL (15+) through node-postgres, for DATABASE_URL. Connect as a superuser: the
// backend switches to anon/authenticated/service_role per request with SET LOCAL ROLE.
import pg from 'pg';
import { inlineParams, settingsSql, type Engine, type Sql, type SqlResult, type TextStatement, type Verdict } from './engine.ts';
import { runPipelined } from './pipelined-statement.ts';

// Hand back values as text, like PGlite does for types it cannot map; the HTTP layers build their
// JSON in SQL anyway, so only scalar helpers see these.
pg.types.setTypeParser(1114, (v) => v); // timestamp
pg.types.setTypeParser(1184, (v) => v); // timestamptz
pg.types.setTypeParser(1082, (v) => v); // date

/** Connections the backend opens (http.ts shares them fairly among callers). */
export const POSTGRES_POOL_SIZE = 10;

export async function openPostgres(url: string): Promise<Engine> {
  const pool = new pg.Pool({ connectionString: url, max: POSTGRES_POOL_SIZE });
  // An idle pooled connection the server ends (a restart, pg_terminate_backend, a dropped database)
  // emits 'error' on the pool: unhandled, that would crash the whole backend. The pool drops that
  // connection and opens a new one for the next query.
  pool.on('error', (e) => console.warn(`postgres: idle connection lost (${(e as { code?: string }).code ?? e.message})`));
  const wrap = (c: pg.Pool | pg.PoolClient): Sql => ({
    async query<T>(text: string, params: unknown[] = []): Promise<SqlResult<T>> {
      const r = await c.query(text, params as unknown[]);
      return { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
    },
    async exec(script: string) {
      await c.query(script); // simple query protocol: several statements, no parameters
    },
  });
  await pool.query('select 1');
  /** One pooled connection for fn's transaction: rolled back when fn throws, always released. */
  const inTransaction = async <T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> => {
    const client = await pool.connect();
    try {
      return await fn(client);
    } catch (e) {
      await client.query('rollback').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  };
  return {
    kind: 'postgres',
    ...wrap(pool),
    transaction: (fn, settings) =>
      inTransaction(async (client) => {
        await client.query(settings && Object.keys(settings).length ? `begin; ${settingsSql(settings)}` : 'begin');
        const result = await fn(wrap(client));
        await client.query('commit');
        return result;
      }),
    runStatement: async <T>(settings: Record<string, string>, statement: TextStatement, decide?: (result: SqlResult<T>) => Verdict) => {
      if (!decide) {
        // Committed unless it fails: one round trip, prepared statements (pipelined-statement.ts).
        const client = await pool.connect();
        try {
          return (await runPipelined(client, settings, statement)) as SqlResult<T>;
        } finally {
          client.release();
        }
      }
      return inTransaction(async (client) => {
        // The simple query protocol takes several statements in one message; the verdict follows.
        const script = `begin; ${settingsSql(settings)}; ${inlineParams(statement)}`;
        const results = (await client.query(script)) as unknown as pg.QueryResult[];
        const r = results[2]!;
        const result: SqlResult<T> = { rows: r.rows as T[], rowCount: r.rowCount ?? r.rows.length };
        await client.query(decide(result) === 'rollback' ? 'rollback' : 'commit');
        return result;
      });
    },
    close: () => pool.end(),
  };
}
