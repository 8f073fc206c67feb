// Certificates of completion (issue 14), as the backend enforces them: public.issue_certificate
// refuses until the student may (enrolled, every lesson completed, certificates on), records the
// certificate once with a snapshot that later edits never change; public.verify_certificate answers
// anyone with exactly six fields of the certificate with that exact code, and nothing else; the table
// itself is read only by its student, the school's staff and the super admin.
// Students, courses and enrollments are created fresh with the service role.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { issueCertificate, verifyCertificate } from '../../../src/features/certificates/api/queries.ts';
import { fetchIssuedCertificates } from '../../../src/features/reports/api/queries.ts';
import { useBackend } from '../harness.ts';
import { EMAIL, SCHOOL } from '../rls/seed.ts';

const PASSWORD = 'senha-cert-123';
const CODE = /^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){5}$/;
const VERIFY_KEYS = ['code', 'completed_at', 'course_title', 'school_name', 'student_name', 'workload_hours'];

const backend = useBackend();
const service = backend.service();

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}

/** A PUBLISHED course of the demo school with one module and lessons of these durations (seconds). */
async function course(title: string, durations: number[], extra: Record<string, unknown> = {}) {
  const slug = `cert-${Date.now()}-${Math.random().toString(36).slice(2, 7)}`;
  const c = (await must(service.from('courses').insert({ school_id: SCHOOL.demo, title, slug, status: 'PUBLISHED', ...extra }).select('id').single())) as { id: string };
  const m = (await must(service.from('modules').insert({ course_id: c.id, title: 'Módulo único' }).select('id').single())) as { id: string };
  const lessons: string[] = [];
  for (const [i, duration_sec] of durations.entries()) {
    const l = (await must(service.from('lessons').insert({ module_id: m.id, course_id: c.id, title: `Aula ${i + 1}`, order_index: i, duration_sec }).select('id').single())) as { id: string };
    lessons.push(l.id);
  }
  return { id: c.id, slug, lessons };
}

/** A new student of the demo school (signed in), enrolled ACTIVE in these courses. */
async function student(name: string, enrollIn: string[]) {
  const email = `cert.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: SCHOOL.demo } });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  for (const course_id of enrollIn) await must(service.from('enrollments').insert({ user_id: id, course_id, status: 'ACTIVE' }).select('id'));
  return { id, client: await backend.signIn(email, PASSWORD) };
}

/** The student completes these lessons themself, at these times. */
async function complete(client: SupabaseClient, userId: string, lessons: string[], times: string[] = []) {
  for (const [i, lesson_id] of lessons.entries()) {
    await must(
      client
        .from('progress')
        .upsert({ user_id: userId, lesson_id, completed_at: times[i] ?? new Date().toISOString() }, { onConflict: 'user_id,lesson_id' })
        .select('lesson_id'),
    );
  }
}

describe('issue_certificate refuses', () => {
  it('before every lesson is completed', async () => {
    const c = await course('Curso incompleto', [600, 600]);
    const s = await student('Ana Parcial', [c.id]);
    await expect(issueCertificate(s.client, c.id)).rejects.toMatchObject({ code: '22023', message: 'Conclua todas as aulas do curso para emitir o certificado.' });
    await complete(s.client, s.id, [c.lessons[0]!]);
    await expect(issueCertificate(s.client, c.id)).rejects.toMatchObject({ code: '22023' });
    expect(await must(service.from('certificates').select('id').eq('user_id', s.id))).toEqual([]);
  });

  it('without an enrollment, or when the enrollment is paused or expired', async () => {
    const c = await course('Curso sem matrícula', [600]);
    const outsider = await student('Bruno Sem Matrícula', []);
    await expect(issueCertificate(outsider.client, c.id)).rejects.toMatchObject({ code: '42501', message: 'Você não tem acesso a este curso.' });

    // Completed everything while enrolled, then lost access.
    const paused = await student('Carla Pausada', [c.id]);
    await complete(paused.client, paused.id, c.lessons);
    await must(service.from('enrollments').update({ status: 'PAUSED' }).eq('user_id', paused.id).select('id'));
    await expect(issueCertificate(paused.client, c.id)).rejects.toMatchObject({ code: '42501' });
    const expired = await student('Davi Expirado', [c.id]);
    await complete(expired.client, expired.id, c.lessons);
    await must(service.from('enrollments').update({ expires_at: new Date(Date.now() - 60_000).toISOString() }).eq('user_id', expired.id).select('id'));
    await expect(issueCertificate(expired.client, c.id)).rejects.toMatchObject({ code: '42501' });

    // Anon cannot call it at all; a course of another school is refused like any other.
    await expect(issueCertificate(backend.anon(), c.id)).rejects.toBeTruthy();
    const rival = await must(service.from('courses').select('id').eq('school_id', SCHOOL.rival).limit(1).single());
    await expect(issueCertificate(outsider.client, (rival as { id: string }).id)).rejects.toMatchObject({ code: '42501' });
  });

  it('when the course has certificates turned off', async () => {
    const c = await course('Curso sem certificado', [600], { certificate_enabled: false });
    const s = await student('Elisa Desligada', [c.id]);
    await complete(s.client, s.id, c.lessons);
    await expect(issueCertificate(s.client, c.id)).rejects.toMatchObject({ code: '22023', message: 'Este curso não emite certificado.' });
    // Staff of the school turn them on (a column they may update); staff of another school cannot.
    const rival = await backend.signIn(EMAIL.adminRival);
    expect(await must(rival.from('courses').update({ certificate_enabled: true }).eq('id', c.id).select('id'))).toEqual([]);
    const staff = await backend.signIn(EMAIL.adminDemo);
    expect(await must(staff.from('courses').update({ certificate_enabled: true }).eq('id', c.id).select('certificate_enabled'))).toEqual([{ certificate_enabled: true }]);
    expect((await issueCertificate(s.client, c.id)).code).toMatch(CODE);
  });
});

describe('an issued certificate', () => {
  // 50 min + 45 min = 95 min → 2 hours (rounded); completed on the last lesson's completion.
  let c: Awaited<ReturnType<typeof course>>;
  let s: Awaited<ReturnType<typeof student>>;
  let code: string;
  let certificateId: string;
  const last = '2026-11-23T15:30:00.000Z';

  beforeAll(async () => {
    c = await course('Gestão Ágil de Projetos', [3000, 2700]);
    s = await student('João Conceição Müller', [c.id]);
    await complete(s.client, s.id, c.lessons, ['2026-11-20T10:00:00.000Z', last]);
  });

  it('is recorded with the snapshot: name, course, school, last completion, workload in hours, an unguessable code', async () => {
    const cert = await issueCertificate(s.client, c.id);
    code = cert.code;
    certificateId = cert.id;
    expect(cert).toMatchObject({ user_id: s.id, course_id: c.id, school_id: SCHOOL.demo, student_name: 'João Conceição Müller', course_title: 'Gestão Ágil de Projetos', school_name: 'Escola Demo', workload_hours: 2 });
    expect(new Date(cert.completed_at).toISOString()).toBe(last);
    expect(cert.code).toMatch(CODE);
  });

  it('is issued once: a second call answers the same certificate, and later edits change nothing', async () => {
    const again = await issueCertificate(s.client, c.id);
    expect(again.id).toBe(certificateId);
    expect(again.code).toBe(code);

    await must(service.from('courses').update({ title: 'Título novo do curso' }).eq('id', c.id).select('id'));
    await must(service.from('lessons').update({ duration_sec: 36_000 }).eq('id', c.lessons[0]!).select('id'));
    await must(service.from('profiles').update({ name: 'Outro Nome' }).eq('id', s.id).select('id'));
    const later = await issueCertificate(s.client, c.id);
    expect(later).toMatchObject({ id: certificateId, code, course_title: 'Gestão Ágil de Projetos', student_name: 'João Conceição Müller', workload_hours: 2 });
    expect((await verifyCertificate(backend.anon(), code))?.course_title).toBe('Gestão Ágil de Projetos');
    expect(await must(service.from('certificates').select('id').eq('user_id', s.id))).toHaveLength(1);
  });

  it('cannot be written by its student: no insert, update or delete through the API', async () => {
    const update = await s.client.from('certificates').update({ student_name: 'Falso' }).eq('id', certificateId).select('id');
    expect(update.error).not.toBeNull();
    const insert = await s.client
      .from('certificates')
      .insert({ code: 'AAAA-AAAA-AAAA-AAAA-AAAA-AAAA', user_id: s.id, school_id: SCHOOL.demo, student_name: 'x', course_title: 'x', school_name: 'x', completed_at: last, workload_hours: 99 });
    expect(insert.error).not.toBeNull();
    const del = await s.client.from('certificates').delete().eq('id', certificateId).select('id');
    expect(del.error).not.toBeNull();
    // Not even the service role rewrites the snapshot (a trigger keeps it).
    const rewrite = await service.from('certificates').update({ workload_hours: 40 }).eq('id', certificateId).select('id');
    expect(rewrite.error).not.toBeNull();
    expect((await verifyCertificate(backend.anon(), code))?.workload_hours).toBe(2);
  });

  it('verify_certificate, as anon, answers exactly the six public fields for the right code', async () => {
    const { data, error } = await backend.anon().rpc('verify_certificate', { p_code: code });
    expect(error).toBeNull();
    expect(data).toHaveLength(1);
    const row = (data as Record<string, unknown>[])[0]!;
    expect(Object.keys(row).sort()).toEqual(VERIFY_KEYS);
    expect(row).toMatchObject({ code, student_name: 'João Conceição Müller', course_title: 'Gestão Ágil de Projetos', school_name: 'Escola Demo', workload_hours: 2 });
    expect(new Date(row.completed_at as string).toISOString()).toBe(last);
    // Nothing that identifies the account: no ids, no e-mail.
    expect(JSON.stringify(row)).not.toContain(s.id);
    expect(JSON.stringify(row)).not.toContain('@');
  });

  it('verify_certificate answers nothing for a wrong or malformed code', async () => {
    const anon = backend.anon();
    const wrong = code.slice(0, -1) + (code.endsWith('0') ? '1' : '0');
    for (const p_code of [wrong, code.toLowerCase(), code.replaceAll('-', ''), ` ${code}`, '', '%', `${code}' or '1'='1`, 'x'.repeat(5000), null]) {
      const { data, error } = await anon.rpc('verify_certificate', { p_code });
      expect(error, String(p_code)).toBeNull();
      expect(data, String(p_code)).toEqual([]);
    }
    expect(await verifyCertificate(anon, wrong)).toBeNull();
  });

  it('anon cannot read the table', async () => {
    const { data, error } = await backend.anon().from('certificates').select('code');
    expect(error).not.toBeNull();
    expect(data).toBeNull();
  });

  it('its student reads it; another student of the same school does not', async () => {
    expect(await must(s.client.from('certificates').select('code'))).toEqual([{ code }]);
    const other = await backend.signIn(EMAIL.aluno);
    expect(await must(other.from('certificates').select('code').eq('code', code))).toEqual([]);
    expect(await must(other.from('certificates').select('id').eq('user_id', s.id))).toEqual([]);
  });

  it("the school's staff see it in Reports; another school's staff do not", async () => {
    const staff = await backend.signIn(EMAIL.adminDemo);
    const page = await fetchIssuedCertificates(staff, { schoolId: SCHOOL.demo, courseId: c.id, page: 0 });
    expect(page.total).toBe(1);
    expect(page.rows[0]).toMatchObject({ code, student_name: 'João Conceição Müller', workload_hours: 2 });
    const rival = await backend.signIn(EMAIL.adminRival);
    expect(await must(rival.from('certificates').select('code').eq('code', code))).toEqual([]);
    expect((await fetchIssuedCertificates(rival, { schoolId: SCHOOL.demo, courseId: null, page: 0 })).total).toBe(0);
    const rivalStudent = await backend.signIn(EMAIL.alunoRival);
    expect(await must(rivalStudent.from('certificates').select('code'))).toEqual([]);
    const superAdmin = await backend.signIn(EMAIL.super);
    expect(await must(superAdmin.from('certificates').select('code').eq('code', code))).toEqual([{ code }]);
  });

  it('survives the deletion of its course, and still verifies', async () => {
    await must(service.from('courses').delete().eq('id', c.id).select('id'));
    const row = (await must(service.from('certificates').select('course_id, course_title').eq('id', certificateId).single())) as { course_id: string | null; course_title: string };
    expect(row).toEqual({ course_id: null, course_title: 'Gestão Ágil de Projetos' });
    expect((await verifyCertificate(backend.anon(), code))?.student_name).toBe('João Conceição Müller');
  });
});

it('rounds the workload to whole hours, at least 1', async () => {
  const cases: [number[], number][] = [
    [[60], 1], // 1 min → 1 h (never 0)
    [[3600, 1740], 1], // 1 h 29 min → 1 h
    [[3600, 1800], 2], // 1 h 30 min → 2 h
    [[0, 0], 1], // no durations filled in → 1 h
  ];
  for (const [durations, hours] of cases) {
    const c = await course(`Curso de ${durations.join('+')} s`, durations);
    const s = await student('Fábio Horas', [c.id]);
    await complete(s.client, s.id, c.lessons);
    expect((await issueCertificate(s.client, c.id)).workload_hours, durations.join('+')).toBe(hours);
  }
});

it('two simultaneous requests record one certificate', async () => {
  const c = await course('Curso do clique duplo', [600]);
  const s = await student('Gabi Clique', [c.id]);
  await complete(s.client, s.id, c.lessons);
  const [a, b] = await Promise.all([issueCertificate(s.client, c.id), issueCertificate(s.client, c.id)]);
  expect(a.code).toBe(b.code);
  expect(await must(service.from('certificates').select('id').eq('course_id', c.id))).toHaveLength(1);
});

it('codes are distinct and well formed across many certificates', async () => {
  const { data, error } = await service.rpc('verify_certificate', { p_code: 'nada' });
  expect(error).toBeNull();
  expect(data).toEqual([]);
  const codes = (await must(service.from('certificates').select('code'))) as { code: string }[];
  expect(codes.length).toBeGreaterThanOrEqual(5);
  for (const { code } of codes) expect(code).toMatch(CODE);
  expect(new Set(codes.map((c) => c.code)).size).toBe(codes.length);
});
