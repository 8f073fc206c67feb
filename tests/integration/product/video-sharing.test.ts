// Issue 39: "Compartilhamento suspeito" lists a school's accounts seen on more than N devices or M
// networks in 7 days, with their sessions, to the school's staff only; "Encerrar sessões" ends the
// account's playback sessions and every sign-in (its refresh tokens stop working, and playback refuses its
// access tokens at once). Another school's staff, and staff at aal1 whose account has a second factor,
// read nothing and end nothing (checked in the database). Sessions go 90 days after they started.
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { useBackend } from '../harness.ts';
import { LESSON, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
const admin = backend.signedIn('adminDemo');
const adminRival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

/** A session of `userId` in `school` that started `ago` (an interval) and is still live when `live`. */
async function session(userId: string, school: string, device: string, ip: string, ago = '1 hour', live = false) {
  await backend.sql(
    `insert into private.playback_sessions
       (user_id, school_id, lesson_id, device_hash, network_hash, browser_label, network_label, started_at, last_heartbeat_at, ended_at, end_reason)
     select $1, $2, $3, private.video_hash($2, 'device', $4), private.video_hash($2, 'network', private.network_prefix($5)),
            'Chrome · Windows', private.network_prefix($5), now() - $6::interval,
            case when $7 then now() else now() - $6::interval + interval '10 minutes' end,
            case when $7 then null else now() - $6::interval + interval '10 minutes' end,
            case when $7 then null else 'ended' end`,
    [userId, school, school === SCHOOL.demo ? LESSON.excelUpload : LESSON.rivalPaid, device, ip, ago, live],
  );
}

const liveOf = async (userId: string) =>
  Number((await backend.sql<{ n: string }>(`select count(*) as n from private.playback_sessions where user_id = $1 and ended_at is null`, [userId]))[0]!.n);
const signInsOf = async (userId: string) => Number((await backend.sql<{ n: string }>(`select count(*) as n from auth.sessions where user_id = $1`, [userId]))[0]!.n);

interface Suspect {
  user_id: string;
  name: string;
  devices: number;
  networks: number;
  session_count: number;
  sessions: { device: string; browser: string; network: string; lesson_title: string; started_at: string; ended_at: string | null; end_reason: string | null }[];
  total_count: number;
}
const report = async (client: SupabaseClient, school: string = SCHOOL.demo) => {
  const r = await client.rpc('suspicious_sharing', { p_school_id: school });
  return { error: r.error, rows: (r.data ?? []) as Suspect[] };
};

beforeAll(async () => {
  // aluno: 5 devices on 2 networks this week (over 4 devices), 2 more devices 8 days ago (not counted), one live now.
  for (const [i, ip] of ['189.10.20.1', '189.10.20.2', '189.10.20.3', '200.50.60.7', '200.50.60.8'].entries()) await session(USER.aluno, SCHOOL.demo, `aparelho-${i}`, ip, `${i + 1} hours`);
  await session(USER.aluno, SCHOOL.demo, 'aparelho-0', '189.10.20.1', '5 minutes', true);
  for (const d of ['velho-1', 'velho-2']) await session(USER.aluno, SCHOOL.demo, d, '177.1.1.1', '8 days');
  // aluna: 1 device on 6 networks (over 5 networks). pausado: 3 devices on 2 networks (under both).
  for (const ip of ['10.0.1.1', '10.0.2.1', '10.0.3.1', '10.0.4.1', '10.0.5.1', '10.0.6.1']) await session(USER.aluna, SCHOOL.demo, 'celular', ip);
  for (const d of ['a', 'b', 'c']) await session(USER.pausado, SCHOOL.demo, d, d === 'c' ? '10.9.9.9' : '10.8.8.8');
  // The rival school's student, over the line in the rival school.
  for (const d of ['1', '2', '3', '4', '5', '6']) await session(USER.alunoRival, SCHOOL.rival, d, '172.16.0.1');
});

describe('Compartilhamento suspeito', () => {
  it("lists the school's accounts over N devices or M networks in 7 days, with their sessions", async () => {
    const { error, rows } = await report(admin);
    expect(error).toBeNull();
    expect(rows.map((r) => [r.user_id, r.devices, r.networks, r.session_count])).toEqual([
      [USER.aluno, 5, 2, 6],
      [USER.aluna, 1, 6, 6],
    ]);
    expect(rows.every((r) => r.total_count === 2)).toBe(true);
    const aluno = rows.find((r) => r.user_id === USER.aluno)!;
    expect(aluno.name).toBeTruthy();
    expect(aluno.sessions).toHaveLength(6);
    expect(aluno.sessions[0]).toEqual(
      expect.objectContaining({ browser: 'Chrome · Windows', network: '189.10.20.0/24', lesson_title: 'Fórmulas básicas', ended_at: null, end_reason: null }),
    );
    expect(new Set(aluno.sessions.map((s) => s.device)).size).toBe(5);
    // What the report shows never holds an address.
    expect(JSON.stringify(rows)).not.toMatch(/189\.10\.20\.[1-9]\b/);
  });

  it("the school's thresholds decide who is listed", async () => {
    await backend.sql(`insert into public.school_video_settings (school_id, sharing_max_devices, sharing_max_networks) values ($1, 2, 6)`, [SCHOOL.demo]);
    try {
      expect((await report(admin)).rows.map((r) => r.user_id)).toEqual([USER.aluno, USER.pausado]);
    } finally {
      await backend.sql(`delete from public.school_video_settings where school_id = $1`, [SCHOOL.demo]);
    }
  });

  it("another school's staff cannot read the report nor end your students' sessions", async () => {
    const read = await report(adminRival);
    expect(read.error?.code).toBe('42501');
    expect(read.rows).toEqual([]);
    const end = await adminRival.rpc('end_account_sessions', { p_user_id: USER.aluno });
    expect(end.error?.code).toBe('42501');
    expect(await liveOf(USER.aluno)).toBe(1);
    expect(await signInsOf(USER.aluno)).toBeGreaterThan(0);
    expect((await aluno.auth.getUser()).error).toBeNull();
    // Their own school's report is theirs.
    expect((await report(adminRival, SCHOOL.rival)).rows.map((r) => r.user_id)).toEqual([USER.alunoRival]);
  });

  it('staff at aal1 whose account has a second factor get nothing; at aal2 they do', async () => {
    const staff = await backend.createAccount({ prefix: 'staff-2fa', name: 'Equipe 2FA', school: SCHOOL.demo, role: 'STAFF' });
    const aal2 = await backend.twoFactorSession(staff.email, staff.password);
    const aal1 = await backend.signIn(staff.email, staff.password);
    const read = await report(aal1);
    expect(read.error?.code).toBe('42501');
    expect(read.rows).toEqual([]);
    expect((await aal1.rpc('end_account_sessions', { p_user_id: USER.aluno })).error?.code).toBe('42501');
    expect(await liveOf(USER.aluno)).toBe(1);
    expect(await signInsOf(USER.aluno)).toBeGreaterThan(0);
    expect((await report(aal2.client)).rows.map((r) => r.user_id)).toEqual([USER.aluno, USER.aluna]);
  });

  it('staff cannot sign out a staff account of their school', async () => {
    expect((await admin.rpc('end_account_sessions', { p_user_id: USER.instrutor })).error?.code).toBe('42501');
  });

  it('"Encerrar sessões" ends the playback sessions and every sign-in of the student', async () => {
    const { data: { session } } = await aluno.auth.getSession();
    expect(await liveOf(USER.aluno)).toBe(1);
    const ended = await admin.rpc('end_account_sessions', { p_user_id: USER.aluno });
    expect(ended).toEqual(expect.objectContaining({ error: null, data: 1 }));
    expect(await liveOf(USER.aluno)).toBe(0);
    expect(await backend.sql(`select end_reason from private.playback_sessions where user_id = $1 and started_at > now() - interval '1 hour'`, [USER.aluno])).toEqual([
      { end_reason: 'signed_out' },
    ]);
    expect(await signInsOf(USER.aluno)).toBe(0);
    // The refresh token is dead: the browser is signed out at its next refresh.
    expect((await aluno.auth.refreshSession({ refresh_token: session!.refresh_token })).error).not.toBeNull();
    // Playback refuses the still-unexpired access token of the ended sign-in.
    expect((await aluno.functions.invoke('video-playback', { body: { lessonId: LESSON.excelUpload, action: 'start' } })).response?.status).toBe(404);
  });
});

describe('the school video settings', () => {
  it("staff of the school set them within bounds; another school's staff and students neither read nor write them", async () => {
    // A plain insert, without returning the row (the select policy alone refuses an upsert or a returned row).
    const rival = await adminRival.from('school_video_settings').insert({ school_id: SCHOOL.demo, max_screens: 10 });
    expect(rival.error).not.toBeNull();
    expect(await backend.sql(`select 1 from public.school_video_settings where school_id = $1`, [SCHOOL.demo])).toEqual([]);
    expect((await admin.from('school_video_settings').upsert({ school_id: SCHOOL.demo, max_screens: 3 }).select('max_screens')).data).toEqual([{ max_screens: 3 }]);
    // Nor move the row to another school.
    expect((await admin.from('school_video_settings').update({ school_id: SCHOOL.rival }).eq('school_id', SCHOOL.demo).select()).error).not.toBeNull();
    await adminRival.from('school_video_settings').update({ max_screens: 10 }).eq('school_id', SCHOOL.demo);
    expect((await admin.from('school_video_settings').update({ max_screens: 11 }).eq('school_id', SCHOOL.demo).select()).error?.code).toBe('23514');
    const student = await backend.signIn('aluna@escola-demo.com.br');
    expect((await student.from('school_video_settings').select('max_screens')).data).toEqual([]);
    await student.from('school_video_settings').update({ max_screens: 10 }).eq('school_id', SCHOOL.demo);
    expect(await backend.sql(`select max_screens from public.school_video_settings where school_id = $1`, [SCHOOL.demo])).toEqual([{ max_screens: 3 }]);
    await backend.sql(`delete from public.school_video_settings where school_id = $1`, [SCHOOL.demo]);
  });
});

describe('retention', () => {
  it('deletes sessions 91 days after they started and keeps those of 89 days (the daily job)', async () => {
    await session(USER.aluno, SCHOOL.demo, 'antigo', '10.1.1.1', '91 days');
    await session(USER.aluno, SCHOOL.demo, 'recente', '10.1.1.1', '89 days');
    const ages = () =>
      backend.sql<{ days: number }>(
        `select extract(day from now() - started_at)::integer as days from private.playback_sessions where started_at < now() - interval '80 days' order by 1`,
      );
    expect(await ages()).toEqual([{ days: 89 }, { days: 91 }]);
    const [job] = await backend.sql<{ schedule: string }>(`select schedule from cron.job where jobname = 'delete-old-playback-sessions'`);
    const [minute, hour] = job!.schedule.split(' ');
    const at = new Date();
    at.setUTCHours(Number(hour), Number(minute), 0, 0);
    await backend.server.jobs.tick(at);
    expect(await ages()).toEqual([{ days: 89 }]);
  });
});
