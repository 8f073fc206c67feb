// Issue 44: the audit log is append-only. No API role (anon, a student, a school admin, the super admin,
// the service role) can write, change or delete a row; the database owner cannot either (a migration, a
// security definer function: a trigger refuses any update, any truncate, any delete); the only deleter is
// private.purge_audit_log(), the daily pg_cron job, and only of rows older than the platform's retention.
// Every refusal is checked in the database: the row is still there, unchanged.
import { describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { COURSE } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const aluno = backend.signedIn('aluno');
const superAdmin = backend.signedIn('super');
const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => backend.sql<T>(text, params);

/** A fresh row by the school admin: the course's price changed. */
async function freshRow(): Promise<{ id: string; after: unknown }> {
  const price = 100 + Math.floor(Math.random() * 900);
  const { error } = await admin.from('courses').update({ price }).eq('id', COURSE.excel);
  if (error) throw error;
  const [row] = await sql<{ id: string; after: unknown }>(
    `select id, after from public.audit_log where table_name = 'courses' and row_id = $1 order by created_at desc limit 1`,
    [COURSE.excel],
  );
  expect(row!.after).toEqual({ price });
  return row!;
}

const stillThere = async (id: string) =>
  (
    await sql<{ after: unknown; actor_id: string }>('select after, actor_id from public.audit_log where id = $1', [id])
  )[0];

describe('no API role can change the log', () => {
  const roles: [string, () => SupabaseClient][] = [
    ['anon', () => backend.anon()],
    ['a student', () => aluno],
    ['the school admin', () => admin],
    ['the super admin', () => superAdmin],
    ['the service role', () => service],
  ];

  it.each(roles)('%s: update, delete and insert are refused, and the row is unchanged', async (_name, client) => {
    const row = await freshRow();
    const before = await stillThere(row.id);
    const update = await client()
      .from('audit_log')
      .update({ after: { price: 1 }, actor_id: null })
      .eq('id', row.id)
      .select('id');
    expect(update.error?.code).toBe('42501');
    const del = await client().from('audit_log').delete().eq('id', row.id).select('id');
    expect(del.error?.code).toBe('42501');
    const insert = await client()
      .from('audit_log')
      .insert({ source: 'api', table_name: 'courses', row_id: COURSE.excel, action: 'update', after: { price: 1 } });
    expect(insert.error?.code).toBe('42501');
    expect(await stillThere(row.id)).toEqual(before);
  });

  it('control: the service role reads the log (edge functions may), the browser roles do not', async () => {
    const row = await freshRow();
    const { data, error } = await service.from('audit_log').select('id').eq('id', row.id);
    expect(error).toBeNull();
    expect(data).toEqual([{ id: row.id }]);
    expect((await admin.from('audit_log').select('id').eq('id', row.id)).error?.code).toBe('42501');
  });
});

describe('the database owner and security definer functions cannot change it either', () => {
  it('update, delete and truncate as the owner are refused by the trigger', async () => {
    const row = await freshRow();
    const before = await stillThere(row.id);
    await expect(sql(`update public.audit_log set after = '{"price": 1}' where id = $1`, [row.id])).rejects.toThrow(
      /não pode ser alterado/,
    );
    await expect(sql('delete from public.audit_log where id = $1', [row.id])).rejects.toThrow(/não pode ser alterado/);
    await expect(sql('truncate public.audit_log')).rejects.toThrow(/não pode ser alterado/);
    expect(await stillThere(row.id)).toEqual(before);
  });

  it('a security definer function called by the school admin cannot rewrite or delete a row', async () => {
    await sql(`create function public.rewrite_audit_row(p_id uuid) returns void language sql security definer set search_path = '' as
               $$ update public.audit_log set actor_id = null, after = '{"price": 1}' where id = p_id $$`);
    await sql(`create function public.delete_audit_row(p_id uuid) returns void language plpgsql security definer set search_path = '' as
               $$ begin perform set_config('audit.purging', 'on', true); delete from public.audit_log where id = p_id; end $$`);
    await sql(
      'grant execute on function public.rewrite_audit_row(uuid), public.delete_audit_row(uuid) to authenticated',
    );
    const row = await freshRow();
    const before = await stillThere(row.id);
    expect((await admin.rpc('rewrite_audit_row', { p_id: row.id })).error?.code).toBe('42501');
    // Even with the purge's own setting on, a row inside the retention stays.
    expect((await admin.rpc('delete_audit_row', { p_id: row.id })).error?.code).toBe('42501');
    expect(await stillThere(row.id)).toEqual(before);
  });
});

describe('retention: the scheduled purge is the only deleter', () => {
  it('purge_audit_log deletes rows past the retention and nothing newer; the job is scheduled daily', async () => {
    const recent = await freshRow();
    const [old] = await sql<{ id: string }>(
      `insert into public.audit_log (created_at, school_id, source, table_name, row_id, action, after)
       values (now() - interval '731 days', null, 'system', 'courses', 'x', 'update', '{"price": 1}') returning id`,
    );
    const [kept] = await sql<{ id: string }>(
      `insert into public.audit_log (created_at, school_id, source, table_name, row_id, action, after)
       values (now() - interval '700 days', null, 'system', 'courses', 'y', 'update', '{"price": 2}') returning id`,
    );
    // Not the purge: the owner's plain delete of the expired row is refused too.
    await expect(sql('delete from public.audit_log where id = $1', [old!.id])).rejects.toThrow(/não pode ser alterado/);
    const [{ purged }] = await sql<{ purged: number }>('select private.purge_audit_log() as purged');
    expect(purged).toBe(1);
    const left = await sql<{ id: string }>('select id from public.audit_log where id = any($1::uuid[])', [
      [old!.id, kept!.id, recent.id],
    ]);
    expect(left.map((r) => r.id).sort()).toEqual([kept!.id, recent.id].sort());
    const jobs = await sql<{ schedule: string; command: string }>(
      `select schedule, command from cron.job where jobname = 'purge-audit-log'`,
    );
    expect(jobs).toEqual([{ schedule: '41 3 * * *', command: 'select private.purge_audit_log()' }]);
  });

  it('no API role can run the purge', async () => {
    for (const client of [service, admin, superAdmin]) {
      expect((await client.rpc('purge_audit_log')).error).not.toBeNull();
    }
  });
});
