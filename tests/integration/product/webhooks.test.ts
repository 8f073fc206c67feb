// Issue 11, inbound webhooks in real Deno: tenant-webhook (platform secret) and student-webhook (the
// school's secret). Wrong or missing secrets change nothing; every bad field gets a 400 naming it;
// repeated calls are idempotent; school A's secret never touches school B.
import { describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL } from '../rls/seed.ts';

const TENANT_SECRET = 'local-tenant-webhook-secret-troque-em-producao';
const DEMO_SECRET = 'whsec_escola_demo_local_0123456789abcdef';
const RIVAL_SECRET = 'whsec_academia_rival_local_0123456789abcdef';

const backend = useBackend();
const service = backend.service();

async function post(name: string, body: unknown, secret?: string, method = 'POST') {
  const res = await fetch(`${backend.url}/functions/v1/${name}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(secret ? { 'x-webhook-secret': secret } : {}) },
    body: method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

const tag = () => Math.random().toString(36).slice(2, 8);
const counts = async () => ({
  users: (await service.auth.admin.listUsers({ perPage: 1000 })).data.users.length,
  schools: (await service.from('schools').select('id', { count: 'exact', head: true })).count,
  enrollments: (await service.from('enrollments').select('id', { count: 'exact', head: true })).count,
});

describe('tenant-webhook', () => {
  const valid = () => {
    const t = tag();
    return { email: `dono.${t}@exemplo.com.br`, name: 'Dona da Escola', company_name: `Escola ${t}`, company_slug: `escola-${t}`, phone: '11988887777' };
  };

  it('refuses a missing or wrong secret, other methods and huge bodies, changing nothing', { timeout: 60_000 }, async () => {
    const before = await counts();
    expect((await post('tenant-webhook', valid())).status).toBe(401);
    expect((await post('tenant-webhook', valid(), 'errado')).status).toBe(401);
    expect((await post('tenant-webhook', valid(), DEMO_SECRET)).status).toBe(401);
    expect((await post('tenant-webhook', null, TENANT_SECRET, 'GET')).status).toBe(405);
    expect((await post('tenant-webhook', { ...valid(), name: 'x'.repeat(70 * 1024) }, TENANT_SECRET)).status).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['email', { email: undefined }],
    ['email', { email: 'nao-e-email' }],
    ['name', { name: '' }],
    ['company_name', { company_name: undefined }],
    ['company_slug', { company_slug: undefined }],
    ['company_slug', { company_slug: 'Com Maiúscula' }],
    ['phone', { phone: 123 }],
  ])('names the bad field %s', async (field, patch) => {
    const r = await post('tenant-webhook', { ...valid(), ...patch }, TENANT_SECRET);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ field });
    expect(typeof r.body.error).toBe('string');
  });

  it('creates a school whose admin signs in; the same call again returns the same school', { timeout: 60_000 }, async () => {
    const body = valid();
    const r = await post('tenant-webhook', body, TENANT_SECRET);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email: body.email, temporary_password: 'Admin@2026' });
    const school = (await service.from('schools').select('slug, name').eq('id', r.body.school_id as string).single()).data;
    expect(school).toEqual({ slug: body.company_slug, name: body.company_name });
    const login = createClient(backend.url, ANON_KEY, { auth: { persistSession: false } });
    expect((await login.auth.signInWithPassword({ email: body.email, password: 'Admin@2026' })).error).toBeNull();
    const again = await post('tenant-webhook', body, TENANT_SECRET);
    expect(again).toMatchObject({ status: 200, body: { school_id: r.body.school_id, user_id: r.body.user_id } });
    expect((await post('tenant-webhook', { ...body, email: `outra.${tag()}@exemplo.com.br` }, TENANT_SECRET)).status).toBe(409);
  });
});

describe('student-webhook', () => {
  const valid = (extra: Record<string, unknown> = {}) => ({ email: `comprador.${tag()}@exemplo.com.br`, name: 'Comprador', school_id: SCHOOL.demo, course_id: COURSE.excel, ...extra });

  it('refuses a missing or wrong secret, and school A’s secret for school B, changing nothing', { timeout: 60_000 }, async () => {
    const before = await counts();
    expect((await post('student-webhook', valid())).status).toBe(401);
    expect((await post('student-webhook', valid(), 'errado')).status).toBe(401);
    expect((await post('student-webhook', valid(), TENANT_SECRET)).status).toBe(401);
    expect((await post('student-webhook', valid({ school_id: SCHOOL.rival, course_id: COURSE.rival }), DEMO_SECRET)).status).toBe(401);
    expect((await post('student-webhook', valid({ course_id: COURSE.rival }), DEMO_SECRET)).body).toMatchObject({ field: 'course_id' });
    expect(await counts()).toEqual(before);
  });

  it.each([
    ['email', { email: 'x' }],
    ['name', { name: undefined }],
    ['school_id', { school_id: 'nao-uuid' }],
    ['course_id', { course_id: undefined }],
    ['course_id', { course_id: 'c0000000-0000-4000-8000-0000000000ff' }],
    ['cpf', { cpf: '123.456.789-00' }],
    ['expires_at', { expires_at: '31/12/2026' }],
    ['cohort_id', { cohort_id: 42 }],
  ])('names the bad field %s', async (field, patch) => {
    const r = await post('student-webhook', valid(patch), DEMO_SECRET);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ field });
  });

  it('creates and enrolls; a repeated call returns the same ids with 200 and updates the expiry', { timeout: 60_000 }, async () => {
    const body = valid({ cpf: '529.982.247-25', expires_at: '2027-01-31T23:59:59Z', cohort_id: 'turma-1' });
    const r = await post('student-webhook', body, DEMO_SECRET);
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({ email: body.email, temporary_password: '52998224725', course_id: COURSE.excel, school_id: SCHOOL.demo });
    expect(typeof r.body.message).toBe('string');
    const enr = (await service.from('enrollments').select('status, expires_at, cohort_id, user_id').eq('id', r.body.enrollment_id as string).single()).data!;
    expect(enr).toMatchObject({ status: 'ACTIVE', cohort_id: 'turma-1', user_id: r.body.user_id });
    expect(Date.parse(enr.expires_at!)).toBe(Date.parse('2027-01-31T23:59:59Z'));
    const before = await counts();
    const again = await post('student-webhook', { ...body, expires_at: '2027-06-30' }, DEMO_SECRET);
    expect(again).toMatchObject({ status: 200, body: { user_id: r.body.user_id, enrollment_id: r.body.enrollment_id, temporary_password: null } });
    expect(await counts()).toEqual(before);
    expect(Date.parse((await service.from('enrollments').select('expires_at').eq('id', r.body.enrollment_id as string).single()).data!.expires_at!)).toBe(Date.parse('2027-06-30'));
  });

  it('an existing student of the school is enrolled (201) without a new account; another school’s e-mail is 409', { timeout: 60_000 }, async () => {
    const r = await post('student-webhook', valid({ email: EMAIL.aluna, course_id: COURSE.marketing }), DEMO_SECRET);
    expect(r.status).toBe(201);
    expect(r.body.temporary_password).toBeNull();
    const other = await post('student-webhook', valid({ email: EMAIL.alunoRival }), DEMO_SECRET);
    expect(other.status).toBe(409);
    const rival = await post('student-webhook', valid({ school_id: SCHOOL.rival, course_id: COURSE.rival }), RIVAL_SECRET);
    expect(rival.status).toBe(201);
  });
});

describe('school webhook secret RPCs', () => {
  it('staff of the school reveal and rotate it; other staff, students and anon get nothing', { timeout: 60_000 }, async () => {
    const [admin, rival, aluno] = await Promise.all([backend.signIn(EMAIL.adminDemo), backend.signIn(EMAIL.adminRival), backend.signIn(EMAIL.aluno)]);
    expect((await admin.rpc('reveal_school_webhook_secret', { p_school_id: SCHOOL.demo })).data).toBe(DEMO_SECRET);
    for (const c of [rival, aluno]) {
      expect((await c.rpc('reveal_school_webhook_secret', { p_school_id: SCHOOL.demo })).error?.code).toBe('42501');
      expect((await c.rpc('rotate_school_webhook_secret', { p_school_id: SCHOOL.demo })).error?.code).toBe('42501');
    }
    for (const c of [backend.anon(), admin, aluno]) {
      expect((await c.rpc('get_school_webhook_secret', { p_school_id: SCHOOL.demo })).data ?? null).toBeNull();
    }
    expect((await service.rpc('get_school_webhook_secret', { p_school_id: SCHOOL.demo })).data).toBe(DEMO_SECRET);
    const rotated = (await admin.rpc('rotate_school_webhook_secret', { p_school_id: SCHOOL.demo })).data as string;
    expect(rotated).toMatch(/^whsec_[0-9a-f]{64}$/);
    // The old secret stops working at once; the new one works.
    expect((await post('student-webhook', { email: `x.${tag()}@exemplo.com.br`, name: 'X', school_id: SCHOOL.demo, course_id: COURSE.excel }, DEMO_SECRET)).status).toBe(401);
    expect((await post('student-webhook', { email: `x.${tag()}@exemplo.com.br`, name: 'X', school_id: SCHOOL.demo, course_id: COURSE.excel }, rotated)).status).toBe(201);
  });
});
