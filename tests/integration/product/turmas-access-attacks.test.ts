// Issue 40's outside attack on access around a turma (docs/turmas.md, 20261128008500): a subscriber whose
// turma ended gets access, the webhook's old cohort_id never enrolls into an ended turma, turma
// announcements and "Ranking por turma" follow active membership, and a turma announcement's video is read
// only by who may read the announcement. Each attack beside a control.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, PLAN, SCHOOL, TURMA, USER } from '../rls/seed.ts';
import { shop, spDate, tag, must } from './turma-shop.ts';

const backend = useBackend();
const s = shop(backend);
const staff = backend.signedIn('adminDemo');
const aluno = backend.signedIn('aluno'); // in TURMA.excelCurrent
const aluna = backend.signedIn('aluna'); // Escola Demo, in no turma of Excel
const DAY = 86_400_000;
const SECRET = 'whsec_escola_demo_local_0123456789abcdef';

/** A subscription of Plano Completo (every published course) made ACTIVE by its paid event's own function. */
async function subscribe(userId: string) {
  const [row] = await backend.sql(
    `insert into public.subscriptions (school_id, plan_id, plan_name, user_id, environment, billing_type, cycle, value, status)
     values ($1, $2, 'Plano Completo', $3, 'sandbox', 'PIX', 'MONTHLY', 49.9, 'ACTIVE') returning id`, [SCHOOL.demo, PLAN.completo, userId]);
  await backend.sql(`select private.set_subscription_access(s, true) from public.subscriptions s where s.id = $1`, [(row as { id: string }).id]);
}
type Client = Awaited<ReturnType<typeof s.buyer>>['client'];
const opensLesson = async (c: Client) => ((await must(c.from('lesson_contents').select('lesson_id').eq('lesson_id', LESSON.excelVimeo))) ?? []).length === 1;
/** A new student of Excel in a turma, then (by the service role, as a refund or the clock does) paused or expired. */
async function member(prefix: string, turmaId: string, after?: 'paused' | 'expired') {
  const b = await s.buyer(prefix);
  await s.insertRow('enrollments', { user_id: b.id, course_id: COURSE.excel, status: 'ACTIVE', turma_id: turmaId });
  if (after === 'paused') await must(s.service.from('enrollments').update({ status: 'PAUSED' }).eq('user_id', b.id).select('id'));
  if (after === 'expired') await must(s.service.from('enrollments').update({ expires_at: new Date(Date.now() - DAY).toISOString() }).eq('user_id', b.id).select('id'));
  return b;
}

describe('a subscriber whose turma ended', () => {
  it('control: a subscriber whose plain enrollment had expired gets access back', async () => {
    const b = await s.buyer('assinante');
    await s.insertRow('enrollments', { user_id: b.id, course_id: COURSE.excel, status: 'ACTIVE', expires_at: new Date(Date.now() - DAY).toISOString() });
    expect(await opensLesson(b.client)).toBe(false);
    await subscribe(b.id);
    expect(await opensLesson(b.client)).toBe(true);
  });

  it('attack on the customer: a student of an ended turma subscribes and gets access, out of the ended turma', async () => {
    const ended = await s.insertRow('turmas', { course_id: COURSE.excel, name: `Encerrada ${tag()}`, starts_on: spDate(-90), ends_on: spDate(-2) });
    const b = await s.buyer('assinante.turma');
    await s.insertRow('enrollments', { user_id: b.id, course_id: COURSE.excel, status: 'ACTIVE', turma_id: ended });
    expect(await opensLesson(b.client)).toBe(false);
    await subscribe(b.id);
    expect(await must(s.service.from('enrollments').select('status, turma_id, expires_at').eq('user_id', b.id).eq('course_id', COURSE.excel))).toEqual([{ status: 'ACTIVE', turma_id: null, expires_at: null }]);
    expect(await opensLesson(b.client)).toBe(true);
  });

  it('a plan cannot be limited to a turma that has ended; to one under way it can (control)', async () => {
    const ended = await s.insertRow('turmas', { course_id: COURSE.excel, name: `Encerrada ${tag()}`, starts_on: spDate(-90), ends_on: spDate(-2) });
    const refused = await staff.from('plans').update({ turma_id: ended }).eq('id', PLAN.completo).select('id');
    expect(refused.error?.message).toBe('Esta turma já foi encerrada.');
    expect(await must(s.service.from('plans').select('turma_id').eq('id', PLAN.completo))).toEqual([{ turma_id: null }]);
    expect(await must(staff.from('plans').update({ turma_id: TURMA.excelCurrent }).eq('id', PLAN.completo).select('turma_id'))).toEqual([{ turma_id: TURMA.excelCurrent }]);
    await must(staff.from('plans').update({ turma_id: null }).eq('id', PLAN.completo).select('id'));
  });
});

describe("the webhook's old cohort_id and an ended turma", () => {
  async function webhook(body: Record<string, unknown>) {
    const r = await fetch(`${backend.url}/functions/v1/student-webhook`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'x-webhook-secret': SECRET }, body: JSON.stringify({ school_id: SCHOOL.demo, name: 'Comprador', course_id: COURSE.excel, ...body }) });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  }
  async function enrollment(email: string) {
    const rows = await backend.sql(`select e.turma_id, e.cohort_id, e.expires_at > now() or e.expires_at is null as open from public.enrollments e join auth.users u on u.id = e.user_id where u.email = $1 and e.course_id = $2`, [email, COURSE.excel]);
    return rows[0] as { turma_id: string | null; cohort_id: string; open: boolean } | undefined;
  }

  it("control: a cohort_id naming no turma enrolls as before; one naming a turma under way enrolls into it", async () => {
    const email = `coorte.${tag()}@exemplo.com.br`;
    expect((await webhook({ email, cohort_id: 'lote-black-friday' })).status).toBe(201);
    expect(await enrollment(email)).toEqual({ turma_id: null, cohort_id: 'lote-black-friday', open: true });
    const [current] = (await must(s.service.from('turmas').select('name').eq('id', TURMA.excelCurrent))) as { name: string }[];
    const inTurma = `coorte.${tag()}@exemplo.com.br`;
    expect((await webhook({ email: inTurma, cohort_id: current!.name })).status).toBe(201);
    expect(await enrollment(inTurma)).toEqual({ turma_id: TURMA.excelCurrent, cohort_id: current!.name, open: true });
  });

  it("attack on the customer: a cohort_id equal to an ended turma's name enrolls with access, outside it; an explicit ended turma is refused", async () => {
    const name = `2025-${tag()}`;
    await s.insertRow('turmas', { course_id: COURSE.excel, name, starts_on: spDate(-300), ends_on: spDate(-200) });
    const email = `coorte.${tag()}@exemplo.com.br`;
    expect((await webhook({ email, cohort_id: name })).status).toBe(201);
    expect(await enrollment(email)).toEqual({ turma_id: null, cohort_id: name, open: true });

    const explicit = `turma.${tag()}@exemplo.com.br`;
    const refused = await webhook({ email: explicit, turma: name });
    expect(refused).toMatchObject({ status: 409, body: { error: 'Turma encerrada', field: 'turma' } });
    expect(await enrollment(explicit)).toBeUndefined();
  });
});

describe('turma announcements and Ranking por turma after the student left', () => {
  it('control: a student of the turma reads its announcement; a student outside it does not', async () => {
    const m = await member('membro', TURMA.excelCurrent);
    const ann = await s.insertRow('announcements', { school_id: SCHOOL.demo, title: 'Aula ao vivo hoje', body: '<p>Link: https://meet.example/abc</p>', turma_id: TURMA.excelCurrent });
    expect(await must(m.client.from('announcements').select('id').eq('id', ann))).toEqual([{ id: ann }]);
    expect(await must(aluna.from('announcements').select('id').eq('id', ann))).toEqual([]);
  });

  it("attack: a refunded (PAUSED) and an expired student read none of the turma's announcements", async () => {
    const refunded = await member('reembolsado', TURMA.excelCurrent, 'paused');
    const expired = await member('expirado', TURMA.excelCurrent, 'expired');
    for (const c of [refunded.client, expired.client]) expect(await opensLesson(c)).toBe(false);
    const { data: ann } = await staff.from('announcements').insert({ school_id: SCHOOL.demo, title: 'Material exclusivo da turma', body: '<p>https://drive.example/turma</p>', turma_id: TURMA.excelCurrent }).select('id').single();
    expect(await must(refunded.client.from('announcements').select('id').eq('id', ann!.id))).toEqual([]);
    expect(await must(expired.client.from('announcements').select('id').eq('id', ann!.id))).toEqual([]);
  });

  it('attack: a refunded student of the turma ranks against nobody by turma; an active one (control) sees the turma', async () => {
    await must(s.service.from('progress').upsert({ user_id: USER.aluno, lesson_id: LESSON.excelProcv, completed_at: new Date().toISOString() }, { onConflict: 'user_id,lesson_id' }).select('id'));
    await must(staff.from('school_discussion_settings').update({ ranking_enabled: true, ranking_by_turma: true }).eq('school_id', SCHOOL.demo).select('school_id'));
    type Ranking = { by_turma: boolean; top: { user_id: string }[] };
    const people = async (c: Client) => ((await must(c.rpc('school_ranking', {}))) as Ranking).top.map((t) => t.user_id);
    const refunded = await member('reembolsado.ranking', TURMA.excelCurrent, 'paused');
    expect(await people(aluno)).toContain(USER.aluno);
    expect(await people(refunded.client)).toEqual([]);
    // An active student no longer sees a mate whose access ended.
    await must(s.service.from('enrollments').update({ status: 'PAUSED' }).eq('user_id', USER.aluno).eq('course_id', COURSE.excel).select('id'));
    const active = await member('ativo.ranking', TURMA.excelCurrent);
    expect(await people(active.client)).not.toContain(USER.aluno);
    await must(s.service.from('enrollments').update({ status: 'ACTIVE' }).eq('user_id', USER.aluno).eq('course_id', COURSE.excel).select('id'));
    await must(staff.from('school_discussion_settings').update({ ranking_by_turma: false }).eq('school_id', SCHOOL.demo).select('school_id'));
  });
});

describe("a turma announcement's uploaded video", () => {
  const MP4 = new Uint8Array([0, 0, 0, 24, 102, 116, 121, 112, 109, 112, 52, 50]);
  let path = '';
  let draftPath = '';
  it("control: staff post a turma announcement with a video; the turma's student reads the row and signs the video", async () => {
    path = `${SCHOOL.demo}/${crypto.randomUUID()}.mp4`;
    draftPath = `${SCHOOL.demo}/${crypto.randomUUID()}.mp4`;
    for (const p of [path, draftPath]) {
      expect((await staff.storage.from('announcement-videos').upload(p, new Blob([MP4], { type: 'video/mp4' }), { contentType: 'video/mp4' })).error).toBeNull();
    }
    const { data: ann, error } = await staff.from('announcements').insert({ school_id: SCHOOL.demo, title: 'Gravação da aula ao vivo', body: '<p>Só para a turma</p>', video_type: 'direct', video_url: path, turma_id: TURMA.excelCurrent }).select('id').single();
    expect(error).toBeNull();
    expect(await must(staff.from('announcements').insert({ school_id: SCHOOL.demo, title: 'Rascunho', body: '<p>Ainda não</p>', video_type: 'direct', video_url: draftPath, is_active: false }).select('id'))).toHaveLength(1);
    expect(await must(aluno.from('announcements').select('video_url').eq('id', ann!.id))).toEqual([{ video_url: path }]);
    expect((await aluno.storage.from('announcement-videos').createSignedUrl(path, 60)).error).toBeNull();
    // Staff read every file of their school's folder, drafts included.
    const names = ((await staff.storage.from('announcement-videos').list(SCHOOL.demo)).data ?? []).map((f) => `${SCHOOL.demo}/${f.name}`);
    expect(names).toEqual(expect.arrayContaining([path, draftPath]));
    expect((await staff.storage.from('announcement-videos').createSignedUrl(draftPath, 60)).error).toBeNull();
  });

  it("attack: a student outside the turma lists the folder and signs the video; a turma student signs the draft's: nothing", async () => {
    const outsider = await s.buyer('fora');
    const listed = ((await outsider.client.storage.from('announcement-videos').list(SCHOOL.demo)).data ?? []).map((f) => `${SCHOOL.demo}/${f.name}`);
    expect(listed).not.toContain(path);
    expect(listed).not.toContain(draftPath);
    expect((await aluna.storage.from('announcement-videos').createSignedUrl(path, 60)).error).not.toBeNull();
    expect((await aluno.storage.from('announcement-videos').createSignedUrl(draftPath, 60)).error).not.toBeNull();
    const paused = await member('pausado.video', TURMA.excelCurrent, 'paused');
    expect((await paused.client.storage.from('announcement-videos').createSignedUrl(path, 60)).error).not.toBeNull();
  });
});
