// The database's own guarantees, checked in SQL on the migrated and seeded database: catalog-wide rules
// (RLS everywhere, no anon grants, no `true` write policy, an index on every foreign key, safe security
// definer functions), constraints, triggers and the access helpers for every seeded role. The same rules
// are exercised through supabase-js in the other rls-*.test.ts files.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { useBackend } from '../harness.ts';
import { inRolledBackTx, runAs, runAsOwner } from '../rls/sql.ts';
import { COURSE, LESSON, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
let db: Engine;
beforeAll(async () => {
  db = backend.server.ctx.engine;
});

async function rows<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
  return (await db.query<T>(sql, params)).rows;
}

describe('catalog rules', () => {
  it('enables row-level security on every table in public and private', async () => {
    const r = await rows<{ t: string }>(
      `select n.nspname || '.' || c.relname as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
       where n.nspname in ('public', 'private') and c.relkind in ('r', 'p') and not c.relrowsecurity`,
    );
    expect(r).toEqual([]);
  });

  it('has no views in public (none can bypass RLS)', async () => {
    const r = await rows(`select relname from pg_class c join pg_namespace n on n.oid = c.relnamespace
                          where n.nspname = 'public' and c.relkind in ('v', 'm')`);
    expect(r).toEqual([]);
  });

  it('gives anon nothing in public but the login-page columns of schools', async () => {
    const tables = await rows(
      `select table_name, privilege_type from information_schema.role_table_grants
       where grantee = 'anon' and table_schema in ('public', 'private')`,
    );
    expect(tables).toEqual([]);
    const cols = await rows<{ table_name: string; column_name: string; privilege_type: string }>(
      `select table_name, column_name, privilege_type from information_schema.column_privileges
       where grantee = 'anon' and table_schema in ('public', 'private') order by column_name`,
    );
    expect(new Set(cols.map((c) => `${c.table_name}.${c.privilege_type}`))).toEqual(new Set(['schools.SELECT']));
    expect(cols.map((c) => c.column_name).sort()).toEqual(
      ['id', 'slug', 'name', 'member_area_name', 'logo_url', 'login_banner_url', 'login_banner_position',
        'primary_color', 'secondary_color', 'support_whatsapp'].sort(),
    );
  });

  it('keeps the secret tables away from anon and authenticated', async () => {
    for (const role of ['anon', 'authenticated']) {
      for (const t of ['private.integration_secrets', 'private.system_secrets']) {
        const [r] = await rows<{ ok: boolean }>(`select has_table_privilege($1, $2, 'select,insert,update,delete') as ok`, [role, t]);
        expect(r!.ok, `${role} on ${t}`).toBe(false);
      }
    }
    const [sr] = await rows<{ ok: boolean }>(`select has_table_privilege('service_role', 'private.integration_secrets', 'select') as ok`);
    expect(sr!.ok).toBe(true);
  });

  it('has no write policy that is simply true, and every non-anon policy is for authenticated', async () => {
    const r = await rows(
      `select schemaname, tablename, policyname, cmd, roles::text, qual, with_check from pg_policies
       where schemaname in ('public', 'storage')
         and ((cmd <> 'SELECT' and (coalesce(qual, '') = 'true' or coalesce(with_check, '') = 'true'))
              or not (roles <@ array['authenticated', 'anon']::name[]))`,
    );
    expect(r).toEqual([]);
    const anonPolicies = await rows<{ tablename: string; cmd: string }>(
      `select tablename, cmd from pg_policies where 'anon' = any (roles) and schemaname in ('public', 'storage')`,
    );
    expect(anonPolicies).toEqual([{ tablename: 'schools', cmd: 'SELECT' }]);
  });

  it('has an index starting with every foreign key column', async () => {
    const r = await rows(
      `select c.conrelid::regclass::text as tbl, a.attname as col
       from pg_constraint c
       join pg_namespace n on n.oid = c.connamespace
       join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
       where c.contype = 'f' and n.nspname in ('public', 'private')
         and not exists (select 1 from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])`,
    );
    expect(r).toEqual([]);
  });

  it('pins search_path on every security definer function, and exposes none to anon but verify_certificate and record_affiliate_click', async () => {
    const unpinned = await rows(
      `select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private') and p.prosecdef
         and not coalesce(p.proconfig::text[] && array['search_path=""', 'search_path='], false)`,
    );
    expect(unpinned).toEqual([]);
    const anonExec = await rows(
      `select p.oid::regprocedure::text as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname in ('public', 'private') and p.prosecdef and has_function_privilege('anon', p.oid, 'execute')`,
    );
    // The exceptions: the public check of a certificate's code (issue 14), which answers six fields of the
    // certificate with that exact code (tests/integration/product/certificates.test.ts), and a visit of an
    // affiliate's link (issue 43), which adds one to a bounded daily count and answers a boolean
    // (tests/integration/product/affiliates.test.ts).
    expect(anonExec.map((r) => r.fn).sort()).toEqual(['record_affiliate_click(uuid,text)', 'verify_certificate(text)']);
    const authSecrets = await rows(
      `select p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.proname in ('get_integration_secret', 'get_system_secret')
         and has_function_privilege('authenticated', p.oid, 'execute')`,
    );
    expect(authSecrets).toEqual([]);
  });
});

describe('constraints', () => {
  const bad: [string, string][] = [
    ['whatsapp with 11 digits', `update public.schools set support_whatsapp = '11999998888' where id = '${SCHOOL.demo}'`],
    ['whatsapp with letters', `update public.schools set support_whatsapp = '55119999a8888' where id = '${SCHOOL.demo}'`],
    ['slug with spaces', `update public.schools set slug = 'Escola Demo' where id = '${SCHOOL.demo}'`],
    ['position over 100%', `update public.schools set banner_position = '101% 50%' where id = '${SCHOOL.demo}'`],
    ['position without %', `update public.courses set thumbnail_position = '50 50' where id = '${COURSE.excel}'`],
    ['colour not hex', `update public.schools set primary_color = 'blue' where id = '${SCHOOL.demo}'`],
    ['13 installments', `update public.courses set max_installments = 13 where id = '${COURSE.excel}'`],
    ['0 installments', `update public.courses set max_installments = 0 where id = '${COURSE.excel}'`],
    ['negative price', `update public.courses set price = -1 where id = '${COURSE.excel}'`],
    ['negative total_lessons', `update public.courses set total_lessons = -1 where id = '${COURSE.excel}'`],
    ['unknown status', `update public.courses set status = 'HIDDEN' where id = '${COURSE.excel}'`],
    ['duplicate course slug in a school', `update public.courses set slug = 'marketing-digital' where id = '${COURSE.excel}'`],
    ['unknown video type', `update public.lessons set video_type = 'dailymotion' where id = '${LESSON.excelText}'`],
    ['rating 6', `update public.lesson_ratings set rating = 6 where lesson_id = '${LESSON.excelPreview}'`],
    ['rating 0', `update public.lesson_ratings set rating = 0 where lesson_id = '${LESSON.excelPreview}'`],
    ['unknown role', `insert into public.user_roles (user_id, school_id, role) values ('${USER.aluna}', '${SCHOOL.demo}', 'OWNER')`],
    ['school role without school', `insert into public.user_roles (user_id, school_id, role) values ('${USER.aluna}', null, 'STAFF')`],
    ['unknown enrollment status', `update public.enrollments set status = 'CANCELLED' where user_id = '${USER.aluno}'`],
    ['enrollment in another school', `insert into public.enrollments (user_id, course_id) values ('${USER.aluna}', '${COURSE.rival}')`],
    ['material with neither url nor file', `insert into public.materials (course_id, title, type) values ('${COURSE.excel}', 'x', 'PDF')`],
    ['unknown material type', `insert into public.materials (course_id, title, type, url) values ('${COURSE.excel}', 'x', 'ZIP', 'https://a.b')`],
    ['announcement video type', `insert into public.announcements (school_id, title, body, video_type) values ('${SCHOOL.demo}', 't', 'b', 'upload')`],
    ['blank comment', `insert into public.lesson_comments (user_id, lesson_id, comment) values ('${USER.aluno}', '${LESSON.excelPreview}', '   ')`],
    ['integration provider', `insert into public.integration_settings (school_id, provider) values ('${SCHOOL.demo}', 'paypal')`],
    ['negative playback position', `update public.progress set last_position_sec = -1 where user_id = '${USER.aluno}'`],
    ['price beyond numeric(10,2)', `update public.courses set price = 1234567890 where id = '${COURSE.excel}'`],
  ];
  it.each(bad)('refuses %s', async (_name, sql) => {
    const r = await runAsOwner(db, sql);
    expect(r.error).not.toBeNull();
  });

  it('accepts the valid edge values', async () => {
    const r = await runAsOwner(
      db,
      `update public.schools set support_whatsapp = '551199998888', banner_position = '0% 100%', login_banner_position = '33.5% 12%'
       where id = '${SCHOOL.demo}' returning support_whatsapp`,
    );
    expect(r.error).toBeNull();
    const c = await runAsOwner(db, `update public.courses set max_installments = 12, price = 0.01 where id = '${COURSE.excel}' returning price`);
    expect(c.error).toBeNull();
  });
});

describe('triggers', () => {
  it('creates the profile from sign-up metadata, with an unknown school dropped', async () => {
    const check = await inRolledBackTx(db, async (tx) => {
      await tx.query(
        `insert into auth.users (id, email, raw_user_meta_data) values
         ('b1000000-0000-4000-8000-000000000001', 'x@y.com', '{"name":"Zé","school_id":"${SCHOOL.rival}","must_change_password":true}'),
         ('b1000000-0000-4000-8000-000000000002', 'semnome@y.com', '{"school_id":"not-a-uuid","is_active":false}')`,
      );
      const p = await tx.query<{ id: string; name: string; school_id: string | null; must_change_password: boolean; is_active: boolean }>(
        `select id, name, school_id, must_change_password, is_active from public.profiles where id::text like 'b1000000-%' order by id`,
      );
      return p.rows;
    });
    expect(check).toEqual([
      { id: 'b1000000-0000-4000-8000-000000000001', name: 'Zé', school_id: SCHOOL.rival, must_change_password: true, is_active: true },
      { id: 'b1000000-0000-4000-8000-000000000002', name: 'semnome', school_id: null, must_change_password: false, is_active: true },
    ]);
  });

  it('keeps completed_at once set, while last_position_sec still moves', async () => {
    const r = await runAs<{ completed_at: string | null; last_position_sec: number }>(
      db,
      USER.aluno,
      `update public.progress set completed_at = null, last_position_sec = 42
       where user_id = auth.uid() and lesson_id = '${LESSON.excelPreview}' returning completed_at, last_position_sec`,
    );
    expect(r.error).toBeNull();
    expect(r.rows![0]!.completed_at).not.toBeNull();
    expect(r.rows![0]!.last_position_sec).toBe(42);
  });

  it('takes course_id of progress from the lesson, whatever the client sends', async () => {
    const r = await runAs<{ course_id: string }>(
      db,
      USER.aluno,
      `insert into public.progress (user_id, course_id, lesson_id) values (auth.uid(), '${COURSE.rival}', '${LESSON.excelProcv}') returning course_id`,
    );
    expect(r.error).toBeNull();
    expect(r.rows![0]!.course_id).toBe(COURSE.excel);
  });

  it('fills comment author fields from the profile, not from the client', async () => {
    const r = await runAs<{ author_name: string; comment: string }>(
      db,
      USER.aluno,
      `insert into public.lesson_comments (user_id, lesson_id, comment, author_name) values
       (auth.uid(), '${LESSON.excelProcv}', '  Olá  ', 'Admin Falso') returning author_name, comment`,
    );
    expect(r.rows).toEqual([{ author_name: 'Lucas Aluno', comment: 'Olá' }]);
  });

  it('never clears must_change_password from the metadata (issue 19), and mirrors the profile into it', async () => {
    const out = await inRolledBackTx(db, async (tx) => {
      await tx.query(`update auth.users set raw_user_meta_data = raw_user_meta_data || '{"must_change_password": false}' where id = $1`, [USER.novo]);
      const a = await tx.query<{ must_change_password: boolean }>('select must_change_password from public.profiles where id = $1', [USER.novo]);
      await tx.query('update public.profiles set must_change_password = true where id = $1', [USER.aluno]);
      const b = await tx.query<{ m: string }>(`select raw_user_meta_data ->> 'must_change_password' as m from auth.users where id = $1`, [USER.aluno]);
      // Setting it true through one's own metadata does not reach the profile.
      await tx.query(`update auth.users set raw_user_meta_data = raw_user_meta_data || '{"must_change_password": true, "school_id": "${SCHOOL.rival}"}' where id = $1`, [USER.aluna]);
      const c = await tx.query<{ must_change_password: boolean; school_id: string }>('select must_change_password, school_id from public.profiles where id = $1', [USER.aluna]);
      return { a: a.rows[0], b: b.rows[0], c: c.rows[0] };
    });
    expect(out.a!.must_change_password).toBe(true);
    expect(out.b!.m).toBe('true');
    expect(out.c).toEqual({ must_change_password: false, school_id: SCHOOL.demo });
  });
});

describe('access helpers per seeded role', () => {
  const cases: [string, string, string, boolean][] = [
    // who, uid, lesson, has access
    ['aluno (active enrollment) on a paid lesson', USER.aluno, LESSON.excelProcv, true],
    ['aluna (no enrollment) on a paid lesson', USER.aluna, LESSON.excelProcv, false],
    ['aluna on a preview lesson', USER.aluna, LESSON.excelPreview, true],
    ['pausado on a paid lesson', USER.pausado, LESSON.excelProcv, false],
    ['expirado on a paid lesson', USER.expirado, LESSON.excelProcv, false],
    ['expirado on a preview lesson', USER.expirado, LESSON.excelPreview, true],
    ['inativo (enrolled) on a paid lesson', USER.inativo, LESSON.excelProcv, false],
    ['inativo on a preview lesson', USER.inativo, LESSON.excelPreview, false],
    ['aluno on a lesson of a DRAFT course', USER.aluno, LESSON.draft, false],
    ['aluno on another school preview lesson', USER.aluno, LESSON.rivalPreview, false],
    ['instrutor on a paid lesson of the school', USER.instrutor, LESSON.marketingPaid, true],
    ['instrutor on a DRAFT lesson of the school', USER.instrutor, LESSON.draft, true],
    ['admin of the rival school on a demo preview lesson', USER.adminRival, LESSON.excelPreview, false],
    ['super admin on a rival paid lesson', USER.super, LESSON.rivalPaid, true],
  ];
  it.each(cases)('%s', async (_name, uid, lesson, expected) => {
    const r = await runAs<{ ok: boolean }>(db, uid, 'select private.has_lesson_access($1) as ok', [lesson]);
    expect(r.error).toBeNull();
    expect(r.rows![0]!.ok).toBe(expected);
  });

  it('anon cannot even call the helpers', async () => {
    const r = await runAs(db, null, 'select private.is_super_admin()');
    expect(r.error).toMatch(/permission denied/);
  });
});

describe('secret RPCs refuse every API role but the service role', () => {
  it.each([
    ['anon', null],
    ['a student', USER.aluno],
    ['a school admin', USER.adminDemo],
    ['the super admin', USER.super],
  ])('%s', async (_who, uid) => {
    expect((await runAs(db, uid, `select public.get_system_secret('ASAAS_API_KEY')`)).error).not.toBeNull();
    expect((await runAs(db, uid, `select * from public.get_integration_secret('${SCHOOL.demo}', 'asaas')`)).error).not.toBeNull();
  });
});
