// Brings a database to the state of supabase/: the Supabase bootstrap, every migration once in name
// order (recorded like the Supabase CLI does), and seed.sql on a new database only.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Engine } from './engine.ts';

const BOOTSTRAP = path.join(import.meta.dirname, 'bootstrap.sql');
const BOOTSTRAP_GRANTS = path.join(import.meta.dirname, 'bootstrap-grants.sql');

export interface MigrateResult {
  applied: string[];
  seeded: boolean;
}

export async function migrate(engine: Engine, supabaseDir: string, options: { seed?: boolean } = {}): Promise<MigrateResult> {
  const fresh = !(await hasBootstrap(engine));
  await engine.exec(await readFile(BOOTSTRAP, 'utf8'));
  if (fresh) await engine.exec(await readFile(BOOTSTRAP_GRANTS, 'utf8'));

  const dir = path.join(supabaseDir, 'migrations');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.sql')).sort();
  const done = new Set(
    (await engine.query<{ version: string }>('select version from supabase_migrations.schema_migrations')).rows.map((r) => r.version),
  );
  const applied: string[] = [];
  for (const file of files) {
    const [version, ...rest] = file.replace(/\.sql$/, '').split('_');
    if (done.has(version)) continue;
    const sql = await readFile(path.join(dir, file), 'utf8');
    await engine.transaction(async (tx) => {
      await tx.exec(sql);
      await tx.query('insert into supabase_migrations.schema_migrations (version, name) values ($1, $2)', [version, rest.join('_')]);
    }).catch((e: Error) => {
      throw new Error(`migration ${file} failed: ${e.message}`, { cause: e });
    });
    applied.push(file);
  }

  let seeded = false;
  if (fresh && options.seed !== false) {
    const seedFile = path.join(supabaseDir, 'seed.sql');
    const seed = await readFile(seedFile, 'utf8').catch(() => null);
    if (seed) {
      await engine.exec(seed).catch((e: Error) => {
        throw new Error(`seed.sql failed: ${e.message}`, { cause: e });
      });
      seeded = true;
    }
  }
  return { applied, seeded };
}

async function hasBootstrap(engine: Engine): Promise<boolean> {
  const r = await engine.query<{ ok: boolean }>(
    "select to_regclass('supabase_migrations.schema_migrations') is not null as ok",
  );
  return r.rows[0]?.ok === true;
}
