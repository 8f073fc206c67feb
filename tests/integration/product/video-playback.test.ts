// Issue 39: video-playback hands out a hosted lesson video's URL only to whom sign-lesson-file would sign
// the lesson's file (enrollment active and not expired, module released, no password change pending, the
// school's own student), and holds the account to its "Telas simultâneas": a third screen is refused with
// the limit's message, "Assistir aqui" ends the oldest, a heartbeat keeps a session alive and nothing
// renews a session that ended or went 90 s without one. Each refusal is checked by what the database kept
// (no session), beside the student it still serves.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, MODULE, SCHOOL, USER } from '../rls/seed.ts';
import { hostedLesson, invoke, invokeFrom } from './video-helpers.ts';

const CHROME_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const backend = useBackend({ fakeBunny: true });
const aluno = backend.signedIn('aluno');
const alunoRival = backend.signedIn('alunoRival');
const expirado = backend.signedIn('expirado');
let guid: string;

beforeAll(async () => {
  guid = await hostedLesson(backend, LESSON.excelUpload);
  // The rival school's lesson plays a hosted video too: its student is refused ours, not every video.
  await hostedLesson(backend, LESSON.rivalPaid);
});

const play = (client: SupabaseClient, body: Record<string, unknown>, userAgent = CHROME_WINDOWS) =>
  invoke(client, 'video-playback', { lessonId: LESSON.excelUpload, ...body }, { 'User-Agent': userAgent });

interface SessionRow {
  id: string;
  ended_at: string | null;
  end_reason: string | null;
}
const sessionsOf = (userId: string) =>
  backend.sql<SessionRow>(`select id, ended_at, end_reason from private.playback_sessions where user_id = $1 order by started_at, id`, [userId]);
const liveOf = async (userId: string) => (await sessionsOf(userId)).filter((s) => !s.ended_at).map((s) => s.id);

/** A new student of Escola Demo enrolled in Excel Essencial now, signed in. */
async function newStudent(prefix: string): Promise<{ id: string; client: SupabaseClient; email: string; password: string }> {
  const account = await backend.createAccount({ prefix, name: 'Aluna Nova', school: SCHOOL.demo });
  await backend.sql(`insert into public.enrollments (user_id, course_id, status) values ($1, $2, 'ACTIVE')`, [account.id, COURSE.excel]);
  return { ...account, client: await backend.signIn(account.email, account.password) };
}

afterEach(async () => {
  await backend.sql(`update private.playback_sessions set ended_at = now(), end_reason = 'ended' where ended_at is null`);
});

describe('the playback URL goes only to whom the lesson is open', () => {
  it('an enrolled student gets a URL of the lesson video (HLS) that lives minutes, and a session', async () => {
    const before = Date.now();
    const r = await play(aluno, { action: 'start', deviceId: 'notebook' });
    expect(r.status).toBe(200);
    expect(r.body.playbackUrl).toContain(`/${guid}/playlist.m3u8`);
    expect(r.body.renewAfterSeconds).toBe(30);
    const life = Date.parse(r.body.expiresAt) - before;
    expect(life).toBeGreaterThan(60_000);
    expect(life).toBeLessThanOrEqual(10 * 60_000 + 5_000);
    expect(await liveOf(USER.aluno)).toEqual([r.body.sessionId]);
    // The token in the URL says when it dies, no later than the answer says.
    expect(Number(new URL(r.body.playbackUrl).searchParams.get('expires') ?? /expires=(\d+)/.exec(r.body.playbackUrl)![1]) * 1000).toBeLessThanOrEqual(
      Date.parse(r.body.expiresAt) + 1000,
    );
  });

  it("refuses another school's student, an expired enrollment and a signed-out caller, and keeps no session", async () => {
    expect((await play(alunoRival, { action: 'start' })).status).toBe(404);
    expect((await play(expirado, { action: 'start' })).status).toBe(404);
    expect((await play(backend.anon(), { action: 'start' })).status).toBe(401);
    // Their own video plays (the refusal is about the lesson, not the account).
    expect((await invoke(alunoRival, 'video-playback', { lessonId: LESSON.rivalPaid, action: 'start' })).status).toBe(200);
    expect(await sessionsOf(USER.expirado)).toEqual([]);
    expect(await backend.sql(`select lesson_id from private.playback_sessions where user_id = $1`, [USER.alunoRival])).toEqual([{ lesson_id: LESSON.rivalPaid }]);
  });

  it('refuses a lesson of a module not yet released (drip), while it plays for a student enrolled long enough', async () => {
    await backend.sql(`update public.modules set release_mode = 'AFTER_ENROLLMENT', release_after_days = 14 where id = $1`, [MODULE.excel2]);
    try {
      const fresh = await newStudent('drip-video');
      const refused = await play(fresh.client, { action: 'start' });
      expect(refused.status).toBe(404);
      expect(await sessionsOf(fresh.id)).toEqual([]);
      // aluno's turma started 21 days ago (issue 40: drip counts from the turma's start): released.
      expect((await play(aluno, { action: 'start' })).status).toBe(200);
    } finally {
      await backend.sql(`update public.modules set release_mode = 'IMMEDIATE', release_after_days = null where id = $1`, [MODULE.excel2]);
    }
  });

  it('refuses a student whose password must change, and plays once it changed', async () => {
    const s = await newStudent('senha-video');
    await backend.sql(`update public.profiles set must_change_password = true where id = $1`, [s.id]);
    const refused = await play(s.client, { action: 'start' });
    expect(refused).toEqual({ status: 403, body: expect.objectContaining({ error: 'Troque sua senha antes de continuar.' }) });
    expect(await sessionsOf(s.id)).toEqual([]);
    await backend.sql(`update public.profiles set must_change_password = false where id = $1`, [s.id]);
    expect((await play(s.client, { action: 'start' })).status).toBe(200);
  });

  it('refuses a heartbeat once the enrollment ended mid-session, and ends that session', async () => {
    const s = await newStudent('expira-video');
    const started = await play(s.client, { action: 'start' });
    expect(started.status).toBe(200);
    await backend.sql(`update public.enrollments set expires_at = now() - interval '1 minute' where user_id = $1`, [s.id]);
    expect((await play(s.client, { action: 'heartbeat', sessionId: started.body.sessionId })).status).toBe(404);
    expect(await sessionsOf(s.id)).toEqual([expect.objectContaining({ id: started.body.sessionId, end_reason: 'access_lost' })]);
  });

  it('answers 400 to malformed requests and 409 while the video is processing', async () => {
    for (const body of [{ action: 'start', lessonId: 'x' }, { action: 'pause' }, { action: 'heartbeat' }, { action: 'start', sessionId: 'x' }]) {
      expect((await play(aluno, body)).status, JSON.stringify(body)).toBe(400);
    }
    await backend.sql(`select public.record_lesson_video_upload($1, 'bunny', gen_random_uuid()::text)`, [LESSON.excelProcv]);
    const processing = await invoke(aluno, 'video-playback', { lessonId: LESSON.excelProcv, action: 'start' });
    expect(processing).toEqual({ status: 409, body: expect.objectContaining({ code: 'video_processing', status: 'waiting', percent: 0 }) });
    // A lesson without a hosted video (YouTube): nothing to play here.
    expect((await invoke(aluno, 'video-playback', { lessonId: LESSON.excelVimeo, action: 'start' })).status).toBe(404);
  });
});

describe('Telas simultâneas', () => {
  it('refuses a third screen with the message, and "Assistir aqui" ends the oldest', async () => {
    const a = await play(aluno, { action: 'start', deviceId: 'notebook' });
    const b = await play(aluno, { action: 'start', deviceId: 'celular' });
    expect([a.status, b.status]).toEqual([200, 200]);
    const third = await play(aluno, { action: 'start', deviceId: 'tv-do-amigo' });
    expect(third).toEqual({
      status: 409,
      body: expect.objectContaining({ code: 'too_many_screens', limit: 2, message: 'Você já está assistindo em 2 dispositivos.' }),
    });
    expect(await liveOf(USER.aluno)).toEqual([a.body.sessionId, b.body.sessionId]);

    const here = await play(aluno, { action: 'takeover', deviceId: 'tv-do-amigo' });
    expect(here.status).toBe(200);
    expect(await liveOf(USER.aluno)).toEqual([b.body.sessionId, here.body.sessionId]);
    expect((await sessionsOf(USER.aluno)).find((s) => s.id === a.body.sessionId)?.end_reason).toBe('taken_over');
    // The notebook learns at its next heartbeat; the others go on (each heartbeat carries its device id).
    expect((await play(aluno, { action: 'heartbeat', sessionId: a.body.sessionId, deviceId: 'notebook' })).body.code).toBe('session_ended');
    const renewed = await play(aluno, { action: 'heartbeat', sessionId: b.body.sessionId, deviceId: 'celular' });
    expect(renewed.status).toBe(200);
    expect(renewed.body.sessionId).toBe(b.body.sessionId);
    expect(renewed.body.playbackUrl).toContain(`/${guid}/playlist.m3u8`);
  });

  it("follows the school's setting", async () => {
    await backend.sql(`insert into public.school_video_settings (school_id, max_screens) values ($1, 1)`, [SCHOOL.demo]);
    try {
      expect((await play(aluno, { action: 'start', deviceId: 'notebook' })).status).toBe(200);
      expect((await play(aluno, { action: 'start', deviceId: 'celular' })).body).toEqual(
        expect.objectContaining({ code: 'too_many_screens', limit: 1, message: 'Você já está assistindo em 1 dispositivo.' }),
      );
    } finally {
      await backend.sql(`delete from public.school_video_settings where school_id = $1`, [SCHOOL.demo]);
    }
  });

  it('the same device starting again replaces its own session instead of taking a screen', async () => {
    const first = await play(aluno, { action: 'start', deviceId: 'notebook' });
    const again = await play(aluno, { action: 'start', deviceId: 'notebook' });
    expect(again.status).toBe(200);
    expect(await liveOf(USER.aluno)).toEqual([again.body.sessionId]);
    expect((await sessionsOf(USER.aluno)).find((s) => s.id === first.body.sessionId)?.end_reason).toBe('replaced');
  });

  it('refuses a heartbeat after the session ended, and one for a session of another account', async () => {
    const mine = await play(aluno, { action: 'start', deviceId: 'notebook' });
    expect((await play(aluno, { action: 'end', sessionId: mine.body.sessionId })).body).toEqual({ ended: true });
    const late = await play(aluno, { action: 'heartbeat', sessionId: mine.body.sessionId });
    expect(late).toEqual({ status: 409, body: expect.objectContaining({ code: 'session_ended' }) });
    expect(await liveOf(USER.aluno)).toEqual([]);

    // Another student cannot renew (nor end) aluno's session by its id.
    const live = await play(aluno, { action: 'start', deviceId: 'notebook' });
    const other = await newStudent('outra-sessao');
    expect((await play(other.client, { action: 'heartbeat', sessionId: live.body.sessionId })).body.code).toBe('session_ended');
    await play(other.client, { action: 'end', sessionId: live.body.sessionId });
    expect(await liveOf(USER.aluno)).toEqual([live.body.sessionId]);
  });

  it('a session without a heartbeat for 90 s has ended: it frees its screen and cannot be renewed', async () => {
    const a = await play(aluno, { action: 'start', deviceId: 'notebook' });
    const b = await play(aluno, { action: 'start', deviceId: 'celular' });
    // 89 s of silence: still a screen.
    await backend.sql(`update private.playback_sessions set last_heartbeat_at = now() - interval '89 seconds' where id = $1`, [b.body.sessionId]);
    expect((await play(aluno, { action: 'start', deviceId: 'tablet' })).body.code).toBe('too_many_screens');
    // 91 s: ended when it went silent for 90 s.
    await backend.sql(`update private.playback_sessions set last_heartbeat_at = now() - interval '91 seconds' where id = $1`, [b.body.sessionId]);
    const c = await play(aluno, { action: 'start', deviceId: 'tablet' });
    expect(c.status).toBe(200);
    expect(await liveOf(USER.aluno)).toEqual([a.body.sessionId, c.body.sessionId]);
    const [ended] = await backend.sql<{ end_reason: string; silent: boolean }>(
      `select end_reason, ended_at = last_heartbeat_at + interval '90 seconds' as silent from private.playback_sessions where id = $1`,
      [b.body.sessionId],
    );
    expect(ended).toEqual({ end_reason: 'timed_out', silent: true });
    expect((await play(aluno, { action: 'heartbeat', sessionId: b.body.sessionId })).body.code).toBe('session_ended');

    // Silent for 91 s and renewed by its own heartbeat: refused too, and ended.
    await backend.sql(`update private.playback_sessions set last_heartbeat_at = now() - interval '91 seconds' where id = $1`, [a.body.sessionId]);
    expect((await play(aluno, { action: 'heartbeat', sessionId: a.body.sessionId })).body.code).toBe('session_ended');
    expect(await liveOf(USER.aluno)).toEqual([c.body.sessionId]);
  });

  it('an account starts at most 120 sessions an hour: the next is refused and keeps no row', async () => {
    const s = await newStudent('muitas-sessoes');
    await backend.sql(
      `insert into private.playback_sessions (user_id, school_id, lesson_id, device_hash, network_hash, started_at, last_heartbeat_at, ended_at, end_reason)
       select $1, $2, $3, repeat('a', 64), repeat('b', 64), now() - interval '50 minutes', now() - interval '50 minutes', now() - interval '50 minutes', 'ended'
         from generate_series(1, 120)`,
      [s.id, SCHOOL.demo, LESSON.excelUpload],
    );
    const refused = await play(s.client, { action: 'start', deviceId: 'script-121' });
    expect(refused).toEqual({ status: 429, body: expect.objectContaining({ error: expect.stringContaining('Aguarde') }) });
    expect((await sessionsOf(s.id)).length).toBe(120);
    // An hour on, the account plays again.
    await backend.sql(`update private.playback_sessions set started_at = started_at - interval '15 minutes' where user_id = $1`, [s.id]);
    expect((await play(s.client, { action: 'start', deviceId: 'notebook' })).status).toBe(200);
  });

  it('keeps the device and network as hashes with the browser and network prefix, never the address', async () => {
    const r = await play(aluno, { action: 'start', deviceId: 'notebook' });
    const [row] = await backend.sql<Record<string, string>>(`select * from private.playback_sessions where id = $1`, [r.body.sessionId]);
    expect(row!.device_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.network_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row!.device_hash).not.toBe(row!.network_hash);
    expect(row!.browser_label).toBe('Chrome · Windows');
    expect(row!.network_label).toBe('127.0.0.0/24');
    expect(JSON.stringify(row)).not.toContain('127.0.0.1');
    expect(JSON.stringify(row)).not.toContain('notebook');
  });
});

describe('a session belongs to the screen that started it (issue 39, outside attacker)', () => {
  const from = (localAddress: string, client: SupabaseClient, body: Record<string, unknown>, userAgent = CHROME_WINDOWS) =>
    invokeFrom(backend, client, 'video-playback', { lessonId: LESSON.excelUpload, ...body }, { localAddress, userAgent });
  const sessionRow = async (id: string) =>
    (await backend.sql<{ ended_at: string | null; end_reason: string | null; network_label: string }>(
      `select ended_at, end_reason, network_label from private.playback_sessions where id = $1`,
      [id],
    ))[0];

  it('a heartbeat of a shared session id from another network ends it; the one that started it goes on from its own', async () => {
    const s = await newStudent('rateio');
    const started = await from('127.0.9.5', s.client, { action: 'start', deviceId: 'notebook' });
    expect(started.status).toBe(200);
    const sessionId = started.body.sessionId as string;
    // Another house (another /24) with the same session id and device id: refused, and the session is over.
    const elsewhere = await from('127.0.10.5', s.client, { action: 'heartbeat', sessionId, deviceId: 'notebook' });
    expect(elsewhere).toEqual({ status: 409, body: expect.objectContaining({ code: 'session_ended' }) });
    expect(await sessionRow(sessionId)).toEqual({ ended_at: expect.anything(), end_reason: 'moved', network_label: '127.0.9.0/24' });
    // Its own screen learns at its next heartbeat, and starting again counts as a start (a screen, a row).
    expect((await from('127.0.9.5', s.client, { action: 'heartbeat', sessionId, deviceId: 'notebook' })).body.code).toBe('session_ended');
    const again = await from('127.0.9.5', s.client, { action: 'start', deviceId: 'notebook' });
    expect(again.status).toBe(200);
    // The control: the same device on the same network (another address of the /24) keeps its session.
    const renewed = await from('127.0.9.77', s.client, { action: 'heartbeat', sessionId: again.body.sessionId, deviceId: 'notebook' });
    expect(renewed.status).toBe(200);
    expect(renewed.body.sessionId).toBe(again.body.sessionId);
    expect(renewed.body.playbackUrl).toContain(`/${guid}/playlist.m3u8`);
    expect((await sessionRow(again.body.sessionId))!.ended_at).toBeNull();
  });

  it('a heartbeat from another device on the same network ends the session too', async () => {
    const s = await newStudent('rateio-casa');
    const started = await from('127.0.11.5', s.client, { action: 'start', deviceId: 'notebook' });
    const sessionId = started.body.sessionId as string;
    const otherDevice = await from('127.0.11.5', s.client, { action: 'heartbeat', sessionId, deviceId: 'celular-do-amigo' });
    expect(otherDevice.body.code).toBe('session_ended');
    expect((await sessionRow(sessionId))!.end_reason).toBe('moved');
    // Without a device id the browser stands for the device: another browser is another device.
    const byBrowser = await from('127.0.11.5', s.client, { action: 'start' });
    expect(byBrowser.status).toBe(200);
    const firefox = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
    expect((await from('127.0.11.5', s.client, { action: 'heartbeat', sessionId: byBrowser.body.sessionId }, firefox)).body.code).toBe('session_ended');
    const byBrowser2 = await from('127.0.11.5', s.client, { action: 'start' });
    expect((await from('127.0.11.5', s.client, { action: 'heartbeat', sessionId: byBrowser2.body.sessionId })).status).toBe(200);
  });

  it('a student cannot call the playback RPC directly (made-up device and address): only the function can', async () => {
    const s = await newStudent('rpc-direto');
    const old = await s.client.rpc('video_playback', {
      p_lesson_id: LESSON.excelUpload, p_action: 'start', p_device: 'meu-notebook', p_ip: '200.200.200.1', p_browser: 'Chrome · Windows',
    });
    expect(old.error).not.toBeNull();
    const forged = await s.client.rpc('video_playback', {
      p_user_id: s.id, p_auth_session: null, p_aal: 'aal1', p_lesson_id: LESSON.excelUpload, p_action: 'start',
      p_device: 'meu-notebook', p_ip: '200.200.200.1', p_browser: 'Chrome · Windows',
    });
    expect(forged.error).not.toBeNull();
    expect(await sessionsOf(s.id)).toEqual([]);
    // Through the function the session holds what the function saw.
    const played = await from('127.0.12.5', s.client, { action: 'start', deviceId: 'meu-notebook' });
    expect(played.status).toBe(200);
    expect(await sessionRow(played.body.sessionId)).toEqual({ ended_at: null, end_reason: null, network_label: '127.0.12.0/24' });
  });
});

describe('taking turns with "Assistir aqui" (issue 39, second outside attacker)', () => {
  it('a playback URL lives at most 90 s: a screen taken over (its URL not renewed) stops within one URL life', async () => {
    const before = Date.now();
    const r = await play(aluno, { action: 'start', deviceId: 'notebook' });
    expect(r.status).toBe(200);
    expect(r.body.renewAfterSeconds).toBe(30);
    expect(Date.parse(r.body.expiresAt)).toBeLessThanOrEqual(Date.now() + 90_000);
    // The token in the URL itself (whole seconds).
    expect(Number(/expires=(\d+)/.exec(r.body.playbackUrl)![1]) * 1000).toBeLessThanOrEqual(before + 91_000);
  });

  it('an account takes over another screen at most 20 times an hour: the next is refused with 429 and ends nothing', async () => {
    const s = await newStudent('revezamento');
    const take = (member: number) => play(s.client, { action: 'takeover', deviceId: `membro-${member}` });
    expect((await play(s.client, { action: 'start', deviceId: 'membro-a' })).status).toBe(200);
    expect((await play(s.client, { action: 'start', deviceId: 'membro-b' })).status).toBe(200);
    for (let member = 1; member <= 20; member++) expect((await take(member)).status).toBe(200);
    const live = await liveOf(s.id);
    expect(live).toHaveLength(2);

    const refused = await take(21);
    expect(refused).toEqual({
      status: 429,
      body: expect.objectContaining({
        error: 'Você usou "Assistir aqui" muitas vezes na última hora. Continue em um dos dispositivos em que já está assistindo ou aguarde alguns minutos.',
      }),
    });
    expect(await liveOf(s.id)).toEqual(live);
    expect(await sessionsOf(s.id)).toHaveLength(22);
    // The control: the screens still playing renew, and an hour on the account may take over again.
    const [, newest] = live;
    expect((await play(s.client, { action: 'heartbeat', sessionId: newest, deviceId: 'membro-20' })).status).toBe(200);
    await backend.sql(`update private.playback_sessions set started_at = started_at - interval '61 minutes' where user_id = $1`, [s.id]);
    expect((await take(21)).status).toBe(200);
  });
});
