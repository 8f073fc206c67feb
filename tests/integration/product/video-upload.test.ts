// Issue 39: a lesson's video goes to the video host. video-upload creates the video at the host for staff
// of the lesson's school only and signs its TUS upload; the lesson plays it from then on, and the video it
// replaces, or that its lesson loses, is deleted at the host by delete-host-videos. video-webhook believes
// only the host: a forged call changes nothing in the database, the host's signed one moves the video to
// processing, ready or failed. Without a video host the platform says the school keeps Storage.
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { COURSE, LESSON, MODULE, OBJECT, SCHOOL } from '../rls/seed.ts';
import { FAKE_BUNNY_KEYS } from '../../../scripts/fake-bunny/keys.ts';
import { bunnyWebhook, invoke, post } from './video-helpers.ts';

const backend = useBackend({ fakeBunny: true });
const bunny = backend.bunny;
/** How many videos the host holds. */
const hostVideos = () => bunny.collections().reduce((n, c) => n + c.videoCount, 0);
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const adminRival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

interface VideoRow {
  host: string;
  host_video_id: string;
  status: string;
  percent: number;
  renditions: string[];
  duration_sec: number | null;
  failure_reason: string | null;
}
const videoOf = async (lessonId: string) =>
  (await backend.sql<VideoRow>(`select host, host_video_id, status, percent, renditions, duration_sec, failure_reason from public.lesson_videos where lesson_id = $1`, [lessonId]))[0];
const queued = () => backend.sql<{ host_video_id: string; reason: string }>(`select host_video_id, reason from private.video_host_deletions order by queued_at, host_video_id`);
const upload = (client = admin, lessonId: string = LESSON.excelPivot) => invoke(client, 'video-upload', { lessonId });

describe('video-upload', () => {
  it("gives staff a TUS upload signed for one new video in the school's collection, and the lesson plays it", async () => {
    const r = await upload();
    expect(r.status).toBe(200);
    const guid = r.body.upload.headers.VideoId as string;
    expect(r.body).toEqual({
      lessonId: LESSON.excelPivot,
      status: 'waiting',
      upload: {
        endpoint: bunny.tusUrl,
        headers: { VideoId: guid, LibraryId: FAKE_BUNNY_KEYS.libraryId, AuthorizationSignature: expect.stringMatching(/^[0-9a-f]{64}$/), AuthorizationExpire: expect.any(String) },
        expiresAt: expect.any(String),
        metadata: { title: 'Tabelas dinâmicas' },
      },
    });
    expect(Date.parse(r.body.upload.expiresAt)).toBeGreaterThan(Date.now() + 3600_000);
    expect(JSON.stringify(r.body)).not.toContain(FAKE_BUNNY_KEYS.apiKey);
    expect(bunny.video(guid)).toEqual(expect.objectContaining({ title: 'Tabelas dinâmicas', collectionId: bunny.collections().find((c) => c.name === SCHOOL.demo)!.guid }));

    expect(await videoOf(LESSON.excelPivot)).toEqual(expect.objectContaining({ host: 'bunny', host_video_id: guid, status: 'waiting', percent: 0 }));
    const [lesson] = await backend.sql(
      `select l.video_type, c.video_url from public.lessons l join public.lesson_contents c on c.lesson_id = l.id where l.id = $1`,
      [LESSON.excelPivot],
    );
    expect(lesson).toEqual({ video_type: 'upload', video_url: 'video-host' });
    // Staff read the progress; a student with access to the lesson never reads the host's id.
    expect((await admin.from('lesson_videos').select('status, percent').eq('lesson_id', LESSON.excelPivot)).data).toEqual([{ status: 'waiting', percent: 0 }]);
    expect((await aluno.from('lesson_videos').select('host_video_id')).data).toEqual([]);
  });

  it("refuses another school's staff, students and signed-out callers, and changes nothing", async () => {
    const before = await videoOf(LESSON.excelPivot);
    const videos = hostVideos();
    expect((await upload(adminRival)).status).toBe(404);
    expect((await upload(aluno)).status).toBe(404);
    expect((await upload(backend.anon())).status).toBe(401);
    expect((await invoke(admin, 'video-upload', { lessonId: 'x' })).status).toBe(400);
    expect(await videoOf(LESSON.excelPivot)).toEqual(before);
    expect(hostVideos()).toBe(videos);
    expect(await queued()).toEqual([]);
    // The rival's staff upload to their own lesson.
    expect((await upload(adminRival, LESSON.rivalPaid)).status).toBe(200);
  });

  it('tells staff, and only staff, that uploads go to the video host, creating nothing', async () => {
    const videos = hostVideos();
    const lessonVideos = await backend.sql(`select lesson_id, host_video_id from public.lesson_videos order by lesson_id`);
    expect(await invoke(admin, 'video-upload', { check: true })).toEqual({ status: 200, body: { videoHost: true } });
    expect((await invoke(aluno, 'video-upload', { check: true })).status).toBe(403);
    expect((await invoke(backend.anon(), 'video-upload', { check: true })).status).toBe(401);
    expect(hostVideos()).toBe(videos);
    expect(await backend.sql(`select lesson_id, host_video_id from public.lesson_videos order by lesson_id`)).toEqual(lessonVideos);
  });

  it('replacing the video queues the old one, and delete-host-videos deletes it at the host', async () => {
    const old = (await videoOf(LESSON.excelPivot))!.host_video_id;
    const r = await upload();
    expect(r.status).toBe(200);
    expect((await videoOf(LESSON.excelPivot))!.host_video_id).toBe(r.body.upload.headers.VideoId);
    expect(await queued()).toEqual([{ host_video_id: old, reason: 'replaced' }]);

    // Only the scheduler's service role drains the queue.
    expect((await invoke(admin, 'delete-host-videos', {})).status).toBe(401);
    expect(await invoke(service, 'delete-host-videos', {})).toEqual({ status: 200, body: { claimed: 1, deleted: 1, failed: 0 } });
    expect(bunny.video(old)).toBeUndefined();
    expect(bunny.video(r.body.upload.headers.VideoId)).toBeDefined();
    expect(await queued()).toEqual([]);
  });

  it('a lesson whose video becomes YouTube, or that is deleted, loses its hosted video at the host', async () => {
    const pivot = (await videoOf(LESSON.excelPivot))!.host_video_id;
    const changed = await admin.from('lesson_contents').update({ video_url: 'https://www.youtube.com/watch?v=abc123' }).eq('lesson_id', LESSON.excelPivot).select('lesson_id');
    expect(changed.error).toBeNull();
    expect(await videoOf(LESSON.excelPivot)).toBeUndefined();

    const created = await admin.from('lessons').insert({ module_id: MODULE.excel3, course_id: COURSE.excel, title: 'Aula que some', order_index: 9 }).select('id').single();
    expect(created.error).toBeNull();
    const r = await upload(admin, created.data!.id);
    expect(r.status).toBe(200);
    expect((await admin.from('lessons').delete().eq('id', created.data!.id).select('id')).data).toHaveLength(1);

    expect(await queued()).toEqual([
      { host_video_id: pivot, reason: 'removed' },
      { host_video_id: r.body.upload.headers.VideoId, reason: 'removed' },
    ]);
    expect((await invoke(service, 'delete-host-videos', {})).body).toEqual({ claimed: 2, deleted: 2, failed: 0 });
    expect([bunny.video(pivot), bunny.video(r.body.upload.headers.VideoId)]).toEqual([undefined, undefined]);
  });

  it('a deletion the host refuses waits and is tried again later', async () => {
    await backend.sql(`insert into private.video_host_deletions (host, host_video_id, reason) values ('bunny', 'nao-e-um-guid', 'removed')`);
    expect((await invoke(service, 'delete-host-videos', {})).body).toEqual({ claimed: 1, deleted: 0, failed: 1 });
    const [row] = await backend.sql<{ attempts: number; later: boolean; last_error: string }>(
      `select attempts, next_attempt_at > now() as later, last_error from private.video_host_deletions`,
    );
    expect(row).toEqual({ attempts: 1, later: true, last_error: expect.any(String) });
    // Not due yet: the next call takes nothing.
    expect((await invoke(service, 'delete-host-videos', {})).body).toEqual({ claimed: 0, deleted: 0, failed: 0 });
    await backend.sql(`delete from private.video_host_deletions`);
  });
});

describe('video-webhook', () => {
  let guid: string;
  beforeAll(async () => {
    guid = (await upload(admin, LESSON.excelProcv)).body.upload.headers.VideoId;
  });

  it("a forged call changes nothing; the host's signed call moves the video to ready", async () => {
    const before = await videoOf(LESSON.excelProcv);
    expect(before).toEqual(expect.objectContaining({ status: 'waiting', percent: 0 }));
    Object.assign(bunny.video(guid)!, { status: 4, encodeProgress: 100, availableResolutions: '720p,360p,240p', length: 125 });

    const wrongKey = bunnyWebhook(guid, 3, 'segredo-adivinhado');
    expect((await post(backend, 'video-webhook', wrongKey.body, wrongKey.headers)).status).toBe(401);
    const unsigned = bunnyWebhook(guid, 3);
    expect((await post(backend, 'video-webhook', unsigned.body, { 'Content-Type': 'application/json' })).status).toBe(401);
    // A real signature over another body.
    const other = bunnyWebhook(guid, 3);
    expect((await post(backend, 'video-webhook', other.body.replace('"Status":3', '"Status":4'), other.headers)).status).toBe(401);
    expect(await videoOf(LESSON.excelProcv)).toEqual(before);

    const real = bunnyWebhook(guid, 3);
    expect(await post(backend, 'video-webhook', real.body, real.headers)).toEqual({ status: 200, body: { received: true, updated: true } });
    expect(await videoOf(LESSON.excelProcv)).toEqual(
      expect.objectContaining({ status: 'ready', percent: 100, renditions: ['240p', '360p', '720p'], duration_sec: 125, failure_reason: null }),
    );
    expect((await admin.from('lesson_videos').select('status').eq('lesson_id', LESSON.excelProcv)).data).toEqual([{ status: 'ready' }]);
  });

  it('the progress shows as a percent, a failure with its reason, and late progress never undoes the end', async () => {
    const next = (await upload(admin, LESSON.excelProcv)).body.upload.headers.VideoId as string;
    const send = async () => {
      const hook = bunnyWebhook(next, 0);
      return post(backend, 'video-webhook', hook.body, hook.headers);
    };
    Object.assign(bunny.video(next)!, { status: 3, encodeProgress: 45 });
    await send();
    expect(await videoOf(LESSON.excelProcv)).toEqual(expect.objectContaining({ status: 'processing', percent: 45 }));
    Object.assign(bunny.video(next)!, { status: 5, transcodingMessages: [{ message: 'Codec não suportado' }] });
    await send();
    expect(await videoOf(LESSON.excelProcv)).toEqual(expect.objectContaining({ status: 'failed', failure_reason: 'Codec não suportado' }));
    Object.assign(bunny.video(next)!, { status: 3, encodeProgress: 60 });
    expect((await send()).body).toEqual({ received: true, updated: false });
    expect(await videoOf(LESSON.excelProcv)).toEqual(expect.objectContaining({ status: 'failed' }));
  });
});

describe('without a video host', () => {
  const plain = useBackend();
  const staff = plain.signedIn('adminDemo');

  it('video-upload answers 409 saying the school keeps its videos in Storage, and changes nothing', async () => {
    const r = await invoke(staff, 'video-upload', { lessonId: LESSON.excelPivot });
    expect(r).toEqual({ status: 409, body: expect.objectContaining({ code: 'no_video_host', error: expect.stringContaining('Storage') }) });
    expect(await plain.sql(`select 1 from public.lesson_videos`)).toEqual([]);
    expect(await plain.sql(`select video_url from public.lesson_contents where lesson_id = $1`, [LESSON.excelPivot])).not.toEqual([{ video_url: 'video-host' }]);
    // The editor's question gets the same answer; a student's is refused.
    expect(await invoke(staff, 'video-upload', { check: true })).toEqual({ status: 409, body: expect.objectContaining({ code: 'no_video_host' }) });
    expect((await invoke(await plain.signIn('aluno@escola-demo.com.br'), 'video-upload', { check: true })).status).toBe(403);
    // Still 404 for whom the lesson is not theirs.
    expect((await invoke(await plain.signIn('admin@academia-rival.com.br'), 'video-upload', { lessonId: LESSON.excelPivot })).status).toBe(404);
  });
});

describe('replacing a hosted video (issue 39, outside attacker)', () => {
  /** The host finished encoding `guid`, and says so in a signed webhook. */
  async function hostSays(guid: string, status: 4 | 5) {
    Object.assign(bunny.video(guid)!, status === 4
      ? { status: 4, encodeProgress: 100, availableResolutions: '720p,360p,240p', length: 60 }
      : { status: 5, transcodingMessages: [{ message: 'Arquivo corrompido' }] });
    const hook = bunnyWebhook(guid, status === 4 ? 3 : 5);
    expect((await post(backend, 'video-webhook', hook.body, hook.headers)).status).toBe(200);
  }
  /** The host video a student's player gets for the lesson, or the refusal's status. */
  const playing = async (lessonId: string) => {
    const r = await invoke(aluno, 'video-playback', { lessonId, action: 'start', deviceId: 'notebook' });
    return r.status === 200 ? /\/([0-9a-f-]{36})\/playlist\.m3u8/.exec(r.body.playbackUrl)![1] : r.status;
  };
  const queuedIds = async () => (await queued()).map((q) => q.host_video_id);

  it('the old video plays until the new one is ready; a cancelled or failed replacement leaves it playing', async () => {
    const first = (await upload(admin, LESSON.excelText)).body.upload.headers.VideoId as string;
    await hostSays(first, 4);
    expect(await playing(LESSON.excelText)).toBe(first);

    // A replacement whose upload never arrives (cancelled, or the browser closed): the old one plays on, nothing goes.
    const cancelled = (await upload(admin, LESSON.excelText)).body.upload.headers.VideoId as string;
    expect(await videoOf(LESSON.excelText)).toEqual(expect.objectContaining({ host_video_id: cancelled, status: 'waiting' }));
    expect(await playing(LESSON.excelText)).toBe(first);
    expect(await queuedIds()).not.toContain(first);
    expect(bunny.video(first)).toBeDefined();

    // Staff send again, and this one fails at the host: staff see the failure, students still the old video.
    const failing = (await upload(admin, LESSON.excelText)).body.upload.headers.VideoId as string;
    expect(await queuedIds()).toContain(cancelled);
    await hostSays(failing, 5);
    expect(await videoOf(LESSON.excelText)).toEqual(expect.objectContaining({ host_video_id: failing, status: 'failed', failure_reason: 'Arquivo corrompido' }));
    expect(await playing(LESSON.excelText)).toBe(first);
    expect(await queuedIds()).not.toContain(first);

    // The control: a replacement that gets ready takes over, and only then the old one is deleted at the host.
    const next = (await upload(admin, LESSON.excelText)).body.upload.headers.VideoId as string;
    expect(await playing(LESSON.excelText)).toBe(first);
    await hostSays(next, 4);
    expect(await playing(LESSON.excelText)).toBe(next);
    expect(await queuedIds()).toEqual(expect.arrayContaining([first, cancelled, failing]));
    await invoke(service, 'delete-host-videos', {});
    expect([bunny.video(first), bunny.video(cancelled), bunny.video(failing)]).toEqual([undefined, undefined, undefined]);
    expect(bunny.video(next)).toBeDefined();
    expect(await playing(LESSON.excelText)).toBe(next);
  });
});

describe("a lesson's old Storage video (issue 39, outside attacker)", () => {
  const sign = (path: string) => invoke(aluno, 'sign-lesson-file', { bucket: 'lesson-videos', path });
  const stored = async (name: string) =>
    (await backend.sql(`select 1 from storage.objects where bucket_id = 'lesson-videos' and name = $1`, [name])).length === 1;

  it('is no longer signed once the lesson moved to the host, and is deleted from Storage', async () => {
    // The control first: the lesson's current Storage video is signed for its enrolled student.
    expect((await sign(OBJECT.lessonVideo)).status).toBe(200);
    const moved = await upload(admin, LESSON.excelUpload);
    expect(moved.status).toBe(200);
    // The student kept the old path: it signs nothing any more.
    expect(await sign(OBJECT.lessonVideo)).toEqual({ status: 404, body: expect.objectContaining({ error: 'Arquivo não encontrado' }) });
    expect((await queued()).filter((q) => q.host_video_id === `lesson-videos/${OBJECT.lessonVideo}`)).toEqual([
      { host_video_id: `lesson-videos/${OBJECT.lessonVideo}`, reason: 'replaced' },
    ]);
    await invoke(service, 'delete-host-videos', {});
    expect(await stored(OBJECT.lessonVideo)).toBe(false);
    expect((await queued()).map((q) => q.host_video_id)).not.toContain(`lesson-videos/${OBJECT.lessonVideo}`);
    // Staff still see the lesson's video (the hosted one now).
    expect((await admin.from('lesson_videos').select('status').eq('lesson_id', LESSON.excelUpload)).data).toEqual([{ status: 'waiting' }]);
  });

  it('a Storage video replaced by another Storage upload: only the new one is signed, the old one goes', async () => {
    const dir = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelVimeo}`;
    const [v1, v2] = [`${dir}/1732700000000-aula-v1.mp4`, `${dir}/1732700000001-aula-v2.mp4`];
    for (const p of [v1, v2]) {
      const { error } = await admin.storage.from('lesson-videos').upload(p, Buffer.from('\u0000\u0000\u0000\u0018ftypmp42'), { contentType: 'video/mp4' });
      expect(error).toBeNull();
    }
    await admin.from('lesson_contents').update({ video_url: v1 }).eq('lesson_id', LESSON.excelVimeo);
    expect((await sign(v1)).status).toBe(200);
    await admin.from('lesson_contents').update({ video_url: v2 }).eq('lesson_id', LESSON.excelVimeo);
    expect((await sign(v1)).status).toBe(404);
    expect((await sign(v2)).status).toBe(200);
    await invoke(service, 'delete-host-videos', {});
    expect([await stored(v1), await stored(v2)]).toEqual([false, true]);
  });

  it("another school's staff cannot keep an old video from being deleted by pointing their lesson at it", async () => {
    const queuedIds = async () => (await queued()).map((q) => q.host_video_id);
    const mp4 = Buffer.from('\u0000\u0000\u0000\u0018ftypmp42');
    const old = `${SCHOOL.demo}/${COURSE.excel}/${LESSON.excelVimeo}/1732700000002-aula-antiga.mp4`;
    expect((await admin.storage.from('lesson-videos').upload(old, mp4, { contentType: 'video/mp4' })).error).toBeNull();
    await admin.from('lesson_contents').update({ video_url: old }).eq('lesson_id', LESSON.excelVimeo);
    await admin.from('lesson_contents').update({ video_url: 'https://vimeo.com/76979871' }).eq('lesson_id', LESSON.excelVimeo);
    expect(await queuedIds()).toContain(`lesson-videos/${old}`);
    const rivalVideo = async () =>
      (await backend.sql<{ video_url: string | null }>(`select video_url from public.lesson_contents where lesson_id = $1`, [LESSON.rivalPreview]))[0]!.video_url;
    const before = await rivalVideo();

    // Academia Rival's admin points her lesson at Escola Demo's queued video (or at a path that climbs into it).
    for (const path of [old, `${SCHOOL.rival}/${COURSE.rival}/${LESSON.rivalPreview}/../../../${old}`]) {
      const { error } = await adminRival.from('lesson_contents').update({ video_url: path }).eq('lesson_id', LESSON.rivalPreview).select('lesson_id');
      expect(error).toEqual(expect.objectContaining({ code: '23514', message: 'O vídeo enviado deve ser um arquivo da própria aula.' }));
    }
    expect(await rivalVideo()).toBe(before);
    expect(await queuedIds()).toContain(`lesson-videos/${old}`);
    await invoke(service, 'delete-host-videos', {});
    expect(await stored(old)).toBe(false);

    // The control: her own lesson's upload, in its own folder, is saved.
    const own = `${SCHOOL.rival}/${COURSE.rival}/${LESSON.rivalPreview}/1732700000003-aula.mp4`;
    expect((await adminRival.storage.from('lesson-videos').upload(own, mp4, { contentType: 'video/mp4' })).error).toBeNull();
    const saved = await adminRival.from('lesson_contents').update({ video_url: own }).eq('lesson_id', LESSON.rivalPreview).select('video_url');
    expect(saved).toEqual(expect.objectContaining({ error: null, data: [{ video_url: own }] }));
  });
});
