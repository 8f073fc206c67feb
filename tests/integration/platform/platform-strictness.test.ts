// The local database is as strict as a hosted Supabase project (local-supabase/db/bootstrap.sql and
// migrate.ts), so a migration, a seed or a request that works here works after `supabase db push`:
// migrations run as the platform's non-superuser postgres; auth and storage tables belong to their
// services (only policies may be added to them); storage rows are deleted only through the Storage
// API; API requests carry the platform's statement timeouts and are refused an unfiltered UPDATE or
// DELETE, as safeupdate refuses them.
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { migrate, MIGRATION_ROLE } from '../../../local-supabase/db/migrate.ts';
import { splitStatements } from '../../../local-supabase/db/sql-script.ts';
import { SERVICE_ROLE_KEY, useBackend } from '../harness.ts';

const backend = useBackend();
let db: Engine;
const dirs: string[] = [];

beforeAll(async () => {
  db = backend.server.ctx.engine;
});
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Runs one new migration through the real runner (the others are applied already). */
async function applyMigration(sql: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strict-migration-'));
  dirs.push(dir);
  mkdirSync(path.join(dir, 'migrations'));
  const version = `2999${String(dirs.length).padStart(10, '0')}`;
  writeFileSync(path.join(dir, 'migrations', `${version}_probe.sql`), sql);
  return migrate(db, dir, { seed: false });
}

describe('roles and owners as on the platform', () => {
  it('migrates as a non-superuser postgres with the platform attributes, owner of what it creates', async () => {
    const role = (await db.query<Record<string, boolean>>(
      `select rolsuper, rolcreaterole, rolcreatedb, rolreplication, rolbypassrls, rolinherit from pg_roles where rolname = $1`,
      [MIGRATION_ROLE],
    )).rows[0];
    expect(role).toEqual({ rolsuper: false, rolcreaterole: true, rolcreatedb: true, rolreplication: true, rolbypassrls: true, rolinherit: true });
    const owners = await db.query<{ t: string; owner: string }>(
      `select n.nspname || '.' || c.relname as t, pg_get_userbyid(c.relowner) as owner
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.oid in ('public.courses'::regclass, 'private.payment_events'::regclass, 'auth.users'::regclass,
                        'auth.identities'::regclass, 'storage.objects'::regclass, 'storage.buckets'::regclass) order by 1`,
    );
    expect(Object.fromEntries(owners.rows.map((r) => [r.t, r.owner]))).toEqual({
      'auth.identities': 'supabase_auth_admin',
      'auth.users': 'supabase_auth_admin',
      'private.payment_events': MIGRATION_ROLE,
      'public.courses': MIGRATION_ROLE,
      'storage.buckets': 'supabase_storage_admin',
      'storage.objects': 'supabase_storage_admin',
    });
    const api = await db.query<{ rolname: string; rolinherit: boolean; member: boolean }>(
      `select rolname, rolinherit, pg_has_role($1, oid, 'member') as member from pg_roles
        where rolname in ('anon', 'authenticated', 'service_role') order by rolname`,
      [MIGRATION_ROLE],
    );
    expect(api.rows.every((r) => r.rolinherit && r.member)).toBe(true);
  });

  it('keeps RLS on auth.users and auth.identities, with nothing for the API roles', async () => {
    const r = await db.query<{ relname: string; relrowsecurity: boolean }>(
      `select relname, relrowsecurity from pg_class where oid in ('auth.users'::regclass, 'auth.identities'::regclass) order by 1`,
    );
    expect(r.rows).toEqual([
      { relname: 'identities', relrowsecurity: true },
      { relname: 'users', relrowsecurity: true },
    ]);
    const anon = await backend.anon().schema('auth' as 'public').from('users').select('id');
    expect(anon.error).not.toBeNull();
  });
});

describe('starting again writes nothing cluster-wide', () => {
  // Roles, memberships and role settings are shared by every database of a PostgreSQL cluster: two test
  // databases starting together once failed with "tuple concurrently updated" when each start rewrote them.
  it('a second bootstrap leaves pg_authid, pg_auth_members, pg_db_role_setting and pg_database rows untouched', async () => {
    const snapshot = async () =>
      (
        await db.query<{ row: string }>(
          `select 'authid ' || rolname || ' ' || xmin::text as row from pg_authid
            where rolname in ('anon', 'authenticated', 'service_role', 'authenticator', 'supabase_auth_admin', 'supabase_storage_admin', 'platform_postgres')
           union all select 'member ' || roleid::regrole || ' ' || member::regrole || ' ' || xmin::text from pg_auth_members
           union all select 'setting ' || setrole::regrole || ' ' || xmin::text from pg_db_role_setting
           union all select 'database ' || datname || ' ' || xmin::text from pg_database where datname = current_database()
           order by 1`,
        )
      ).rows.map((r) => r.row);
    const before = await snapshot();
    expect(before.filter((r) => r.startsWith('authid '))).toHaveLength(7);
    await db.exec(readFileSync(path.join(import.meta.dirname, '../../../local-supabase/db/bootstrap.sql'), 'utf8'));
    expect(await snapshot()).toEqual(before);
  });
});

describe('migrations get only what supautils allows on auth and storage', () => {
  it('refuses a migration that alters storage.objects, as the platform does, and records nothing', async () => {
    await expect(applyMigration('alter table storage.objects add column probe text;')).rejects.toThrow(/must be owner of table objects/);
    const cols = await db.query(`select 1 from information_schema.columns where table_schema = 'storage' and column_name = 'probe'`);
    expect(cols.rows).toEqual([]);
  });

  it('refuses altering auth.users too, and changing role to escape', async () => {
    await expect(applyMigration('alter table auth.users add column probe text;')).rejects.toThrow(/must be owner of table users/);
    await expect(applyMigration('reset role;\nalter table storage.objects add column probe text;')).rejects.toThrow(/cannot change role/);
  });

  it('allows policies on storage.objects and triggers on auth.users (not dropping them: that needs the owner), as hosted projects do', async () => {
    const r = await applyMigration(`
      create policy probe_policy on storage.objects for select to authenticated using (bucket_id = 'probe');
      create function public.probe_trigger() returns trigger language plpgsql as $$ begin return new; end $$;
      create trigger probe_trigger after insert on auth.users for each row execute function public.probe_trigger();
      drop policy probe_policy on storage.objects;`);
    expect(r.applied).toHaveLength(1);
  });

  it('splits scripts at their own semicolons only', () => {
    const script = `create function f() returns text language sql as $$ select 'a;b' $$; -- c;
      select 'x;y', "q;z", E'\\';'; /* d; */ select 1`;
    expect(splitStatements(script).map((s) => s.trim())).toEqual([
      `create function f() returns text language sql as $$ select 'a;b' $$;`,
      `-- c;\n      select 'x;y', "q;z", E'\\';';`,
      `/* d; */ select 1`,
    ]);
  });
});

describe('storage rows are deleted only through the Storage API', () => {
  it('refuses a direct DELETE on storage.objects, even from a migration', async () => {
    await expect(db.query(`delete from storage.objects where bucket_id = 'avatars'`)).rejects.toThrow(/Direct deletion from storage tables is not allowed/);
    await expect(applyMigration(`delete from storage.buckets where id = 'probe';`)).rejects.toThrow(/Direct deletion/);
  });

  it('lets the Storage API delete, which sets storage.allow_delete_query for its transaction', async () => {
    const service = backend.service();
    const up = await service.storage.from('avatars').upload('strict/probe.png', new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }));
    expect(up.error).toBeNull();
    const rm = await service.storage.from('avatars').remove(['strict/probe.png']);
    expect(rm.error).toBeNull();
    expect(rm.data).toHaveLength(1);
  });
});

describe('API requests as the platform runs them', () => {
  it('refuses an UPDATE or DELETE without a filter (safeupdate) and changes nothing', async () => {
    const headers = { apikey: SERVICE_ROLE_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}`, 'Content-Type': 'application/json' };
    const before = (await db.query<{ n: number }>(`select count(*)::int as n from public.announcements`)).rows[0]!.n;
    const del = await fetch(`${backend.url}/rest/v1/announcements`, { method: 'DELETE', headers });
    expect(del.status).toBe(400);
    expect(await del.json()).toEqual({ code: '21000', details: null, hint: null, message: 'DELETE requires a WHERE clause' });
    const patch = await fetch(`${backend.url}/rest/v1/announcements`, { method: 'PATCH', headers, body: JSON.stringify({ title: 'x' }) });
    expect(patch.status).toBe(400);
    expect((await patch.json()).message).toBe('UPDATE requires a WHERE clause');
    expect((await db.query<{ n: number }>(`select count(*)::int as n from public.announcements`)).rows[0]!.n).toBe(before);
  });

  it('gives anon the platform statement timeout of 3 s and authenticated 8 s', async () => {
    const r = await db.query<{ rolname: string; setconfig: string[] }>(
      `select r.rolname, s.setconfig from pg_db_role_setting s join pg_roles r on r.oid = s.setrole where r.rolname in ('anon', 'authenticated') order by 1`,
    );
    expect(r.rows).toEqual([
      { rolname: 'anon', setconfig: ['statement_timeout=3s'] },
      { rolname: 'authenticated', setconfig: ['statement_timeout=8s'] },
    ]);
    const seen = await backend.anon().rpc('probe_setting' as never);
    // No such function: the point is the request settings, read back below through a real one.
    expect(seen.error?.code).toBe('PGRST202');
    await db.exec(`create or replace function public.probe_timeout() returns text language sql as $$ select current_setting('statement_timeout') $$;
                   grant execute on function public.probe_timeout() to anon;
                   notify pgrst, 'reload schema';`);
    const anon = await backend.anon().rpc('probe_timeout' as never);
    expect(anon.data).toBe('3s');
  });
});

describe('functions of our migrations', () => {
  it('never UPDATE or DELETE without a WHERE clause (safeupdate refuses them in API requests)', async () => {
    const fns = await db.query<{ name: string; src: string }>(
      `select p.oid::regprocedure::text as name, p.prosrc as src from pg_proc p join pg_namespace n on n.oid = p.pronamespace
        where n.nspname in ('public', 'private') and p.prolang in (select oid from pg_language where lanname in ('sql', 'plpgsql'))`,
    );
    const offenders = fns.rows.flatMap((f) =>
      splitStatements(f.src)
        .map((s) => s.replace(/--[^\n]*/g, '').trim())
        .filter((s) => /^(update|delete)\b/i.test(s) && !/\bwhere\b/i.test(s))
        .map((s) => `${f.name}: ${s.split('\n')[0]}`),
    );
    expect(offenders).toEqual([]);
  });
});
