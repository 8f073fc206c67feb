// Opens the engine the configuration asks for and brings it up to date with supabase/.
import path from 'node:path';
import type { Engine } from './engine.ts';
import { migrate, type MigrateResult } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

export interface OpenOptions {
  /** null: in memory (PGlite). */
  dataDir: string | null;
  databaseUrl: string | null;
  rootDir: string;
  seed?: boolean;
  /** A PGlite data dir tarball (from a migrated database) to start from instead of migrating. */
  snapshot?: Blob;
}

export async function openDatabase(o: OpenOptions): Promise<{ engine: Engine; migration: MigrateResult }> {
  const engine = o.databaseUrl
    ? await openPostgres(o.databaseUrl)
    : await openPglite({ dataDir: o.dataDir ? path.join(o.dataDir, 'db') : null, loadDataDir: o.snapshot });
  try {
    const migration = await migrate(engine, path.join(o.rootDir, 'supabase'), { seed: o.seed });
    return { engine, migration };
  } catch (e) {
    await engine.close().catch(() => {});
    throw e;
  }
}
