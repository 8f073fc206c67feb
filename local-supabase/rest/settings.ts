// What the PostgREST of the platform is configured with, for /rest/v1: from supabase/config.toml,
// the schemas exposed (`[api] schemas`, the first is the default) and the extra search path
// (`[api] extra_search_path`); from the database, PostgREST's in-database configuration, the `pgrst.*`
// settings of the authenticator role (`alter role authenticator set pgrst.db_aggregates_enabled =
// 'true'`, as Supabase documents for aggregates), which win over the file as in PostgREST.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Sql } from '../db/engine.ts';
import type { ServerContext } from '../http.ts';
import { readTomlStringArray, readTomlTable } from '../toml.ts';

export interface RestSettings {
  schemas: string[];
  /** Schemas after the request's own on every request's search_path. */
  extraSearchPath: string[];
  /** db-aggregates-enabled from the file (off on the platform); a test may switch it on. */
  aggregatesEnabled: boolean;
  /** `[api] max_rows` (db-max-rows): above it, count=estimated answers the planner's estimate. */
  maxRows: number;
  /** db-plan-enabled (`Accept: application/vnd.pgrst.plan`, supabase-js's explain()). */
  planEnabled: boolean;
  /** The authenticator's `pgrst.*` settings, without the prefix (read by the REST handler). */
  db: Record<string, string>;
}

const settings = new WeakMap<ServerContext, RestSettings>();

export function restSettings(ctx: ServerContext): RestSettings {
  let s = settings.get(ctx);
  if (!s) {
    let toml = '';
    try {
      toml = readFileSync(path.join(ctx.config.rootDir, 'supabase', 'config.toml'), 'utf8');
    } catch {
      // no config.toml: the CLI's defaults
    }
    const schemas = readTomlStringArray(toml, ['api'], 'schemas') ?? ['public', 'graphql_public'];
    s = {
      schemas: schemas.length ? schemas : ['public'],
      extraSearchPath: readTomlStringArray(toml, ['api'], 'extra_search_path') ?? ['public', 'extensions'],
      maxRows: Number(readTomlTable(toml, ['api']).max_rows ?? 1000),
      aggregatesEnabled: false,
      planEnabled: false,
      db: {},
    };
    settings.set(ctx, s);
  }
  return s;
}

/** A boolean setting: the database's value when it has one, else the file's. */
export function effective(s: RestSettings, name: 'db_aggregates_enabled' | 'db_plan_enabled'): boolean {
  const fromDb = s.db[name];
  if (fromDb !== undefined) return fromDb.trim().toLowerCase() === 'true';
  return name === 'db_aggregates_enabled' ? s.aggregatesEnabled : s.planEnabled;
}

/**
 * The authenticator's `pgrst.*` role settings, a database-specific one winning over the cluster-wide
 * one, as PostgREST's in-database configuration query reads them.
 */
export async function readDbSettings(sql: Sql): Promise<Record<string, string>> {
  const { rows } = await sql.query<{ key: string; value: string }>(
    `select distinct on (key) substr(key, 7) as key, value from (
       select s.setdatabase, split_part(kv, '=', 1) as key, substr(kv, strpos(kv, '=') + 1) as value
       from pg_db_role_setting s, unnest(s.setconfig) as kv
       where s.setrole = (select oid from pg_roles where rolname = 'authenticator')
         and s.setdatabase in (0, (select oid from pg_database where datname = current_database()))
     ) as settings
     where key like 'pgrst.%'
     order by key, setdatabase desc`,
  );
  return Object.fromEntries(rows.map((r) => [r.key, r.value]));
}
