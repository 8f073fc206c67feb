// Issue 39, "Compartilhamento suspeito", as staff use it in Chromium: a student of the demo school watched a
// protected lesson video on 5 devices this week (over the default 4), one still playing; the school's staff
// find the account, open its sessions, and "Encerrar sessões" ends them (the report, read again over the
// API, shows every session ended by the staff, and the student's refresh token no longer works). At 1280
// and 360 px (cards, nothing off-screen). Another school's staff see nothing of it and end nothing. A
// school's staff set "Telas simultâneas" and the report's limits in Configurações (a school of its own).
//
// The sessions are made as video-playback makes them: public.video_playback, called with the service role
// for the student's account and sign-in, for a lesson with a ready hosted video (a course of this spec's
// own, so no other journey's lesson gets a hosted video).
import { expect, PASSWORD, test } from './helpers';
import { LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { API_URL, api, freshSchoolAdmin, passwordSession, signInAs, SCHOOL_ID } from './learning-helpers';

const RIVAL_SCHOOL_ID = '5c000000-0000-4000-8000-000000000002';
const service = { key: LOCAL_SERVICE_ROLE_KEY };
const returning = { Prefer: 'return=representation' };

/** A published course of the demo school with one lesson whose hosted video is ready. */
async function lessonWithHostedVideo(tag: string): Promise<string> {
  const [course] = await api('/rest/v1/courses', {
    method: 'POST',
    ...service,
    headers: returning,
    body: JSON.stringify({ school_id: SCHOOL_ID, title: `Curso protegido ${tag}`, slug: `curso-protegido-${tag}`, status: 'PUBLISHED' }),
  });
  const [module] = await api('/rest/v1/modules', { method: 'POST', ...service, headers: returning, body: JSON.stringify({ course_id: course.id, title: 'Módulo 1' }) });
  const [lesson] = await api('/rest/v1/lessons', {
    method: 'POST',
    ...service,
    headers: returning,
    // A preview lesson: every student of the school may play it, no enrollment needed.
    body: JSON.stringify({ course_id: course.id, module_id: module.id, title: `Aula protegida ${tag}`, is_preview: true }),
  });
  await api('/rest/v1/lesson_videos', {
    method: 'POST',
    ...service,
    body: JSON.stringify({
      lesson_id: lesson.id,
      school_id: SCHOOL_ID,
      host: 'bunny',
      host_video_id: `e2e-sharing-${tag}`,
      playing_host_video_id: `e2e-sharing-${tag}`,
      status: 'ready',
      percent: 100,
    }),
  });
  return lesson.id as string;
}

async function account(name: string, schoolId: string, role?: 'SCHOOL_ADMIN') {
  const email = `e2e.sharing.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@exemplo.com.br`;
  const user = await api('/auth/v1/admin/users', {
    method: 'POST',
    ...service,
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: schoolId } }),
  });
  const id = (user.id ?? user.user?.id) as string;
  if (role) await api('/rest/v1/user_roles', { method: 'POST', ...service, body: JSON.stringify({ user_id: id, school_id: schoolId, role }) });
  return { id, email };
}

/** A call of an RPC as `token`, its HTTP status and body (refusals included). */
async function rpc(token: string, fn: string, args: Record<string, unknown>) {
  const res = await fetch(`${API_URL}/rest/v1/rpc/${fn}`, {
    method: 'POST',
    headers: { apikey: LOCAL_SERVICE_ROLE_KEY, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(args),
  });
  return { status: res.status, body: (await res.json()) as unknown };
}

const DEVICES = [
  { device: 'notebook-casa', ip: '189.10.20.11', browser: 'Chrome · Windows' },
  { device: 'celular', ip: '189.10.20.12', browser: 'Chrome · Android' },
  { device: 'tablet', ip: '189.10.20.13', browser: 'Safari · iPad' },
  { device: 'notebook-trabalho', ip: '200.50.60.7', browser: 'Edge · Windows' },
  { device: 'pc-amigo', ip: '200.50.60.8', browser: 'Firefox · Linux' },
];

/** The sign-in (auth session) an access token belongs to: its `session_id` claim. */
const signInOf = (accessToken: string) => (JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { session_id: string }).session_id;

/**
 * A student who played `lessonId` on the 5 devices above (2 networks), the last one still playing: each
 * session started as video-playback starts it and ended by its 'end', as a closed tab does.
 */
async function studentWatchingOnFiveDevices(name: string, lessonId: string) {
  const student = await account(name, SCHOOL_ID);
  const session = await passwordSession(student.email);
  const viewer = { p_user_id: student.id, p_auth_session: signInOf(session.access_token), p_aal: 'aal1', p_lesson_id: lessonId };
  let live = '';
  for (const [i, d] of DEVICES.entries()) {
    const started = await rpc(LOCAL_SERVICE_ROLE_KEY, 'video_playback', { ...viewer, p_action: 'start', p_device: d.device, p_ip: d.ip, p_browser: d.browser });
    expect(started.body, d.device).toMatchObject({ status: 'ok' });
    const id = (started.body as { session_id: string }).session_id;
    if (i < DEVICES.length - 1) expect((await rpc(LOCAL_SERVICE_ROLE_KEY, 'video_playback', { ...viewer, p_action: 'end', p_session_id: id })).body).toEqual({ status: 'ended' });
    else live = id;
  }
  return { ...student, refreshToken: session.refresh_token as string, liveSession: live };
}

interface ReportRow {
  user_id: string;
  devices: number;
  networks: number;
  sessions: { id: string; ended_at: string | null; end_reason: string | null }[];
}
const reportOf = async (staffToken: string) => {
  const r = await rpc(staffToken, 'suspicious_sharing', { p_school_id: SCHOOL_ID, p_limit: 100 });
  expect(r.status).toBe(200);
  return r.body as ReportRow[];
};
const refreshWorks = async (refreshToken: string) =>
  (await fetch(`${API_URL}/auth/v1/token?grant_type=refresh_token`, {
    method: 'POST',
    headers: { apikey: LOCAL_SERVICE_ROLE_KEY, 'Content-Type': 'application/json' },
    body: JSON.stringify({ refresh_token: refreshToken }),
  })).ok;

for (const width of [1280, 360]) {
  test(`at ${width} px staff find the account, open its sessions and "Encerrar sessões" ends them`, async ({ page }) => {
    const tag = `${width}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const lessonId = await lessonWithHostedVideo(tag);
    const name = `Aluna Compartilhada ${tag}`;
    const student = await studentWatchingOnFiveDevices(name, lessonId);
    const admin = await freshSchoolAdmin(`Admin Compartilhamento ${tag}`);

    await page.setViewportSize({ width, height: 900 });
    await signInAs(page, admin.email);
    await page.goto('/admin/compartilhamento');
    await expect(page.getByRole('heading', { level: 1, name: 'Compartilhamento suspeito' })).toBeVisible();
    await expect(page.getByText(/Aparecem aqui as contas vistas em mais de 4 dispositivos ou em mais de 5 redes nos últimos 7 dias/)).toBeVisible();
    const list = page.getByRole('list', { name: 'Contas com sinais de compartilhamento' });
    const card = list.getByRole('listitem').filter({ has: page.getByRole('heading', { name }) });
    await expect(card).toBeVisible();
    await expect(card.getByText(student.email)).toBeVisible();
    await expect(card.getByText('Dispositivos').locator('xpath=following-sibling::dd')).toHaveText('5');
    await expect(card.getByText('Redes', { exact: true }).locator('xpath=following-sibling::dd')).toHaveText('2');
    await expect(card.getByText('Conta ativa')).toBeVisible();
    await expect(card.getByText('1 vídeo aberto agora')).toBeVisible();

    await card.getByRole('button', { name: `Ver sessões de ${name}` }).click();
    const sessions = card.getByRole('list', { name: `Sessões de ${name}` }).getByRole('listitem');
    await expect(sessions).toHaveCount(5);
    // Newest first: the one still playing, on the fifth device, from the second network.
    await expect(sessions.first()).toContainText('Firefox · Linux');
    await expect(sessions.first()).toContainText('200.50.60.0/24');
    await expect(sessions.first()).toContainText(`Aula protegida ${tag}`);
    await expect(sessions.first().getByText('Assistindo agora')).toBeVisible();
    await expect(sessions.nth(4)).toContainText('Chrome · Windows');
    await expect(sessions.nth(4)).toContainText('189.10.20.0/24');
    await expect(sessions.nth(4)).toContainText('o vídeo foi fechado');
    // The report never shows an address, only its network.
    await expect(card).not.toContainText('189.10.20.11');

    // Nothing of the page is off-screen sideways, and the card's actions are in view.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    for (const button of await card.getByRole('button').all()) {
      const box = (await button.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(width);
    }
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`compartilhamento-${width}.png`), fullPage: true });

    await card.getByRole('button', { name: `Encerrar sessões de ${name}` }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Encerrar sessões?' });
    await expect(confirm).toContainText(name);
    await confirm.getByRole('button', { name: 'Encerrar sessões' }).click();
    await expect(page.getByText('1 sessão de vídeo encerrada. A conta sai de todos os dispositivos em até 1 hora.')).toBeVisible();
    await expect(confirm).toBeHidden();
    await expect(sessions.first()).toContainText('encerrada pela equipe');
    await expect(card.getByText('Assistindo agora')).toHaveCount(0);
    await expect(card.getByText('1 vídeo aberto agora')).toHaveCount(0);

    // In the database: every session of the account has ended, the live one by the staff; its sign-in is gone.
    const staff = await passwordSession(admin.email);
    const row = (await reportOf(staff.access_token)).find((r) => r.user_id === student.id)!;
    expect(row.sessions).toHaveLength(5);
    expect(row.sessions.every((s) => s.ended_at !== null)).toBe(true);
    expect(row.sessions.find((s) => s.id === student.liveSession)!.end_reason).toBe('signed_out');
    expect(await refreshWorks(student.refreshToken)).toBe(false);
  });
}

test("another school's staff see nothing of the account and end nothing", async ({ page }) => {
  const tag = `rival-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const lessonId = await lessonWithHostedVideo(tag);
  const name = `Aluno Visado ${tag}`;
  const student = await studentWatchingOnFiveDevices(name, lessonId);
  const rival = await account(`Admin Rival ${tag}`, RIVAL_SCHOOL_ID, 'SCHOOL_ADMIN');
  const rivalSession = await passwordSession(rival.email);

  // Their own screen lists their own school's accounts only.
  await signInAs(page, rival.email);
  await page.goto('/admin/compartilhamento');
  await expect(page.getByRole('heading', { level: 1, name: 'Compartilhamento suspeito' })).toBeVisible();
  await expect(page.getByText('Nenhuma conta com sinais de compartilhamento').or(page.getByRole('list', { name: 'Contas com sinais de compartilhamento' }))).toBeVisible();
  await expect(page.getByText(name)).toHaveCount(0);
  await expect(page.getByText(student.email)).toHaveCount(0);

  // Asked directly for the demo school's report, or to sign the student out: refused.
  const read = await rpc(rivalSession.access_token, 'suspicious_sharing', { p_school_id: SCHOOL_ID });
  expect(read.status).toBe(403);
  expect(JSON.stringify(read.body)).not.toContain(student.id);
  const end = await rpc(rivalSession.access_token, 'end_account_sessions', { p_user_id: student.id });
  expect(end.status).toBe(403);
  expect(end.body).toMatchObject({ code: '42501' });

  // Nothing ended: the demo school's staff still see the session playing, and the student's sign-in works.
  const admin = await freshSchoolAdmin(`Admin Controle ${tag}`);
  const staff = await passwordSession(admin.email);
  const row = (await reportOf(staff.access_token)).find((r) => r.user_id === student.id)!;
  expect(row.devices).toBe(5);
  expect(row.sessions.find((s) => s.id === student.liveSession)!.ended_at).toBeNull();
  expect(await refreshWorks(student.refreshToken)).toBe(true);
});

test('Configurações → Vídeos das aulas saves the screens limit and the report\'s limits, which the report then says', async ({ page }) => {
  const tag = `limites-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const [school] = await api('/rest/v1/schools', { method: 'POST', ...service, headers: returning, body: JSON.stringify({ slug: tag, name: `Escola ${tag}` }) });
  const admin = await account(`Admin ${tag}`, school.id, 'SCHOOL_ADMIN');
  const kept = async () =>
    (await api(`/rest/v1/school_video_settings?select=max_screens,sharing_max_devices,sharing_max_networks&school_id=eq.${school.id}`, service)) as Record<string, number>[];

  await signInAs(page, admin.email);
  await page.goto('/admin/settings');
  const card = page.getByRole('region', { name: 'Vídeos das aulas' });
  const screens = card.getByRole('spinbutton', { name: 'Telas simultâneas' });
  await expect(screens).toHaveValue('2');
  await expect(card.getByRole('spinbutton', { name: 'Dispositivos em 7 dias' })).toHaveValue('4');
  await expect(card.getByRole('spinbutton', { name: 'Redes em 7 dias' })).toHaveValue('5');

  await screens.fill('11');
  await card.getByRole('button', { name: 'Salvar' }).click();
  await expect(card.getByText('Use um número inteiro de 1 a 10')).toBeVisible();
  expect(await kept()).toEqual([]);

  await screens.fill('3');
  await card.getByRole('spinbutton', { name: 'Dispositivos em 7 dias' }).fill('10');
  await card.getByRole('button', { name: 'Salvar' }).click();
  await expect(page.getByText('Configurações dos vídeos salvas!')).toBeVisible();
  await expect.poll(kept).toEqual([{ max_screens: 3, sharing_max_devices: 10, sharing_max_networks: 5 }]);

  await page.getByRole('navigation', { name: 'Menu administrativo' }).getByRole('link', { name: 'Compartilhamento suspeito' }).click();
  await expect(page).toHaveURL(/\/admin\/compartilhamento$/);
  await expect(page.getByText(/Aparecem aqui as contas vistas em mais de 10 dispositivos ou em mais de 5 redes nos últimos 7 dias/)).toBeVisible();
  await expect(page.getByText('Nenhuma conta com sinais de compartilhamento')).toBeVisible();
});
