// Brings a database to the state of supabase/: the Supabase bootstrap, every migration once in name
// order (recorded like the Supabase CLI does), and seed.sql on a new database only.
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Engine, Sql } from './engine.ts';
import { splitStatements, statementText } from './sql-script.ts';

const BOOTSTRAP = path.join(import.meta.dirname, 'bootstrap.sql');
const BOOTSTRAP_GRANTS = path.join(import.meta.dirname, 'bootstrap-grants.sql');
const PLATFORM_EXTENSIONS = path.join(import.meta.dirname, 'platform-extensions.sql');

export interface MigrateResult {
  applied: string[];
  seeded: boolean;
}

export async function migrate(engine: Engine, supabaseDir: string, options: { seed?: boolean } = {}): Promise<MigrateResult> {
  const fresh = !(await hasBootstrap(engine));
  await engine.exec(await readFile(BOOTSTRAP, 'utf8'));
  if (fresh) await engine.exec(await readFile(BOOTSTRAP_GRANTS, 'utf8'));
  await engine.exec(await readFile(PLATFORM_EXTENSIONS, 'utf8'));

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
      await runAsMigrationRole(tx, sql);
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
      await engine.transaction((tx) => runAsMigrationRole(tx, seed)).catch((e: Error) => {
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

/** The role migrations and the seed run as: the platform's `postgres` (see bootstrap.sql). */
export const MIGRATION_ROLE = 'platform_postgres';

/**
 * The platform's supautils lets its `postgres` create, alter and drop policies on the auth and
 * storage tables it does not own; nothing else there. Those statements run as the local superuser.
 */
const PLATFORM_POLICY_DDL = /^(create|alter|drop)\s+policy\s+(if\s+exists\s+)?("(?:[^"]|"")+"|[\w$]+)\s+on\s+(only\s+)?"?(auth|storage)"?\s*\./i;

/**
 * authenticator is reserved on the platform (supautils); its `postgres` may set PostgREST's settings on
 * it, as Supabase documents (`alter role authenticator set pgrst.db_aggregates_enabled = 'true'`).
 * Those run as the local superuser; any other change to authenticator is refused.
 */
const AUTHENTICATOR_SETTING = /^alter\s+(role|user)\s+"?authenticator"?\s+(in\s+database\s+("(?:[^"]|"")+"|[\w$]+)\s+)?(set|reset)\s+"?pgrst\.[a-z_]+"?\s*(=|to\s|;|$)/i;
const AUTHENTICATOR_CHANGE = /^alter\s+(role|user)\s+"?authenticator"?(\s|;|$)/i;

/**
 * pg_cron, pg_net and Vault are here already, as stand-ins of the same names (platform-extensions.sql):
 * a migration's `create extension` of them has nothing left to do.
 */
const PLATFORM_EXTENSION = /^create\s+extension\s+(if\s+not\s+exists\s+)?"?(pg_cron|pg_net|supabase_vault)"?(\s|;|$)/i;

/** The platform's `postgres` has the extensions schema on its search_path (pgcrypto's crypt, gen_salt ...). */
const MIGRATION_SEARCH_PATH = `"$user", public, extensions`;

/** Leaving the migration role would make every check here moot (the session user is a superuser). */
const ROLE_CHANGE = /^(set\s+(session\s+|local\s+)?role|reset\s+(role|all)|set\s+session\s+authorization|reset\s+session\s+authorization|discard\s+all)\b/i;

/**
 * Runs a migration (or the seed) with the privileges the platform gives `postgres`: as the migration
 * role, except for the policy statements supautils allows on auth.* and storage.*. Consecutive
 * ordinary statements still go to the database together.
 */
async function runAsMigrationRole(tx: Sql, script: string): Promise<void> {
  let batch = '';
  const flush = async () => {
    if (batch.trim()) await tx.exec(batch);
    batch = '';
  };
  await tx.exec(`set local role ${MIGRATION_ROLE}; set local search_path = ${MIGRATION_SEARCH_PATH}`);
  for (const statement of splitStatements(script)) {
    const text = statementText(statement);
    if (ROLE_CHANGE.test(text)) {
      throw Object.assign(new Error(`permission denied: migrations run as the platform's postgres and cannot change role (${text.split('\n')[0]})`), { code: '42501' });
    }
    if (AUTHENTICATOR_CHANGE.test(text) && !AUTHENTICATOR_SETTING.test(text)) {
      throw Object.assign(new Error(`permission denied to alter role: authenticator is reserved, only its pgrst.* settings may change (${text.split('\n')[0]})`), { code: '42501' });
    }
    if (PLATFORM_EXTENSION.test(text)) continue;
    if (PLATFORM_POLICY_DDL.test(text) || AUTHENTICATOR_SETTING.test(text)) {
      await flush();
      await tx.exec('reset role');
      await tx.exec(statement);
      await tx.exec(`set local role ${MIGRATION_ROLE}`);
    } else {
      batch += statement;
    }
  }
  await flush();
}
