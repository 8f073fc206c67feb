// PGlite: Postgres compiled to WASM, embedded in this process. It has one connection, so every
// call goes through its own mutex; transactions hold it until they end.
import { PGlite } from '@electric-sql/pglite';
import { pgcrypto } from '@electric-sql/pglite/contrib/pgcrypto';
import { inlineParams, settingsSql, type Engine, type Sql, type SqlResult, type TextStatement, type Verdict } from './engine.ts';

export async function openPglite(options: { dataDir?: string | null; loadDataDir?: Blob } = {}): Promise<Engine> {
  const db = new PGlite({
    dataDir: options.dataDir ?? undefined,
    loadDataDir: options.loadDataDir,
    // Supabase ships pgcrypto (in schema extensions); seed.sql hashes passwords with it.
    extensions: { pgcrypto },
  });
  await db.waitReady;
  const wrap = (q: Pick<PGlite, 'query' | 'exec'>): Sql => ({
    async query<T>(text: string, params: unknown[] = []): Promise<SqlResult<T>> {
      const r = await q.query<T>(text, params);
      return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
    },
    async exec(script: string) {
      await q.exec(script);
    },
  });
  return {
    kind: 'pglite',
    ...wrap(db),
    transaction: (fn) => db.transaction((tx) => fn(wrap(tx))),
    // One exec for the settings and the statement (PGlite handles every call in turn, so fewer calls
    // is less waiting); the parameters are inlined as for PostgreSQL.
    runStatement: <T>(settings: Record<string, string>, statement: TextStatement, decide?: (result: SqlResult<T>) => Verdict) =>
      db.transaction(async (tx) => {
        const results = await tx.exec(`${settingsSql(settings)}; ${inlineParams(statement)}`);
        const r = results[1]!;
        const result: SqlResult<T> = { rows: r.rows as T[], rowCount: r.affectedRows ?? r.rows.length };
        if (decide?.(result) === 'rollback') await tx.rollback();
        return result;
      }),
    close: () => db.close(),
    // Exposed for snapshotting a migrated database in tests.
    dump: () => db.dumpDataDir('none'),
  } as Engine & { dump: () => Promise<Blob | File> };
}
