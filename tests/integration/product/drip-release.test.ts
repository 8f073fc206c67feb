// Drip release (issue 14), enforced by the backend: before a module is released for a student, the
// lesson page's own query gives them no content, video URL, material or comment of its lessons, the
// storage refuses a signed URL of its video and material files, and progress, ratings and comments
// cannot be written — whatever the SPA shows. Preview lessons stay open; staff see everything.
// Students and enrollments are created fresh with the service role; an enrollment's created_at (the
// start of an AFTER_ENROLLMENT countdown) is set on insert, as a backdated import would.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SupabaseClient } from '@supabase/supabase-js';
import { fetchLessonBundle, openMaterialFile, signLessonVideo, signMaterial } from '../../../src/features/lessons/api/queries.ts';
import { fetchLessonComments } from '../../../src/features/discussions/api/queries.ts';
import { useBackend } from '../harness.ts';
import { OBJECT, SCHOOL } from '../rls/seed.ts';

const DAY = 24 * 60 * 60 * 1000;
const PASSWORD = 'senha-drip-123';
const MP4 = Buffer.from('\x00\x00\x00\x18ftypmp42\x00\x00\x00\x00mp42isom drip video bytes', 'binary');
// A real PDF (the seed's apostila): a student gets it stamped with their name (download-material).
const PDF = readFileSync(path.resolve(import.meta.dirname, '../../../supabase/seed-files/lesson-materials', OBJECT.lessonPdf));

const backend = useBackend();
const service = backend.service();
let courseId: string;
/** Lessons: open (immediate module), dripped (7 days after enrollment), preview in the dripped module,
 * future date, past date. */
const L = { open: '', dripped: '', preview: '', future: '', past: '' };
const modules = { dripped: '', future: '' };
let videoPath: string;
let pdfPath: string;
const who: Record<'today' | 'almost' | 'eightDays', { client: SupabaseClient; id: string }> = {} as never;
const staff = backend.signedIn('adminDemo');

function isoDaysFromNow(days: number): string {
  return new Date(Date.now() + days * DAY).toISOString();
}

/** 'aaaa-mm-dd' of today + days in São Paulo (the calendar the rule uses). */
function spDate(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date(Date.now() + days * DAY));
}

async function must<T>(p: PromiseLike<{ data: T; error: unknown }>): Promise<T> {
  const { data, error } = await p;
  if (error) throw new Error(JSON.stringify(error));
  return data;
}

async function addModule(title: string, order: number, rule: Record<string, unknown>): Promise<string> {
  const row = await must(
    service
      .from('modules')
      .insert({ course_id: courseId, title, order_index: order, ...rule })
      .select('id')
      .single(),
  );
  return (row as { id: string }).id;
}

async function addLesson(moduleId: string, title: string, extra: Record<string, unknown> = {}): Promise<string> {
  const row = await must(
    service
      .from('lessons')
      .insert({ module_id: moduleId, course_id: courseId, title, ...extra })
      .select('id')
      .single(),
  );
  const id = (row as { id: string }).id;
  await must(
    service
      .from('lesson_contents')
      .update({ content: `<p>Conteúdo de ${title}</p>` })
      .eq('lesson_id', id)
      .select('lesson_id'),
  );
  return id;
}

/** A new student of the demo school, enrolled in the course with created_at = enrolledAt. */
async function student(name: string, enrolledAt: string) {
  const email = `drip.${name}.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({
    email,
    password: PASSWORD,
    email_confirm: true,
    user_metadata: { name, school_id: SCHOOL.demo },
  });
  if (created.error) throw created.error;
  const id = created.data.user!.id;
  await must(
    service
      .from('enrollments')
      .insert({ user_id: id, course_id: courseId, status: 'ACTIVE', created_at: enrolledAt })
      .select('id'),
  );
  return { client: await backend.signIn(email, PASSWORD), id };
}

beforeAll(async () => {
  const course = await must(
    service
      .from('courses')
      .insert({
        school_id: SCHOOL.demo,
        title: 'Curso com liberação programada',
        slug: `drip-${Date.now()}`,
        status: 'PUBLISHED',
      })
      .select('id')
      .single(),
  );
  courseId = (course as { id: string }).id;
  const open = await addModule('Boas-vindas', 0, {});
  modules.dripped = await addModule('Semana 2', 1, { release_mode: 'AFTER_ENROLLMENT', release_after_days: 7 });
  modules.future = await addModule('Bônus de dezembro', 2, { release_mode: 'ON_DATE', release_on: spDate(30) });
  const past = await addModule('Bônus antigo', 3, { release_mode: 'ON_DATE', release_on: spDate(-1) });
  L.open = await addLesson(open, 'Apresentação');
  L.dripped = await addLesson(modules.dripped, 'Aula liberada depois', { video_type: 'upload', duration_sec: 60 });
  L.preview = await addLesson(modules.dripped, 'Aula grátis da semana 2', { is_preview: true });
  L.future = await addLesson(modules.future, 'Aula de dezembro');
  L.past = await addLesson(past, 'Aula já liberada por data');

  videoPath = `${SCHOOL.demo}/${courseId}/${L.dripped}/aula.mp4`;
  pdfPath = `${SCHOOL.demo}/${courseId}/${L.dripped}/apostila.pdf`;
  await must(service.storage.from('lesson-videos').upload(videoPath, MP4, { contentType: 'video/mp4' }));
  await must(service.storage.from('lesson-materials').upload(pdfPath, PDF, { contentType: 'application/pdf' }));
  await must(
    service.from('lesson_contents').update({ video_url: videoPath }).eq('lesson_id', L.dripped).select('lesson_id'),
  );
  await must(
    service
      .from('materials')
      .insert([
        { course_id: courseId, lesson_id: L.dripped, title: 'Apostila da semana 2', type: 'PDF', file_path: pdfPath },
        {
          course_id: courseId,
          lesson_id: L.future,
          title: 'Planilha de dezembro',
          type: 'LINK',
          url: 'https://exemplo.com/dezembro',
        },
        { course_id: courseId, lesson_id: null, title: 'Guia do curso', type: 'LINK', url: 'https://exemplo.com/guia' },
      ])
      .select('id'),
  );

  who.today = await student('hoje', new Date().toISOString());
  // One hour short of the 7 days: still locked (the rule is enrollment + 7 × 24 h, not the calendar day).
  who.almost = await student('quase', new Date(Date.now() - 7 * DAY + 60 * 60 * 1000).toISOString());
  who.eightDays = await student('oito', isoDaysFromNow(-8));
  // Someone already discussed the dripped lesson (a released student), so hiding comments is visible.
  await must(
    service
      .from('lesson_comments')
      .insert({ user_id: who.eightDays.id, lesson_id: L.dripped, comment: 'Ótima aula da semana 2' })
      .select('id'),
  );
}, 120_000);

describe('before the release', () => {
  for (const key of ['today', 'almost'] as const) {
    it(`gives the student enrolled ${key === 'today' ? 'today' : '7 days minus 1 hour ago'} no content, video URL, material or comment of the dripped lesson`, async () => {
      const { client, id } = who[key];
      const bundle = await fetchLessonBundle(client, { lessonId: L.dripped, userId: id });
      // The outline row is there (the SPA shows the lock and the date); nothing behind it is.
      expect(bundle).not.toBeNull();
      expect(bundle!.contents).toBeNull();
      expect(bundle!.materials).toEqual([]);
      expect(await fetchLessonComments(client, L.dripped)).toEqual([]);
      const direct = await client.from('lesson_contents').select('content, video_url').eq('lesson_id', L.dripped);
      expect(direct.error).toBeNull();
      expect(direct.data).toEqual([]);
      // By course: only the course-wide material (course access) and none of a locked lesson.
      const byCourse = await client.from('materials').select('title').eq('course_id', courseId);
      expect(byCourse.data?.map((m) => m.title)).toEqual(['Guia do curso']);
      const comments = await client.from('lesson_comments').select('id').eq('course_id', courseId);
      expect(comments.data).toEqual([]);
    });
  }

  it('refuses a signed URL (and a download) of the dripped lesson video and material file', async () => {
    const { client } = who.today;
    await expect(signLessonVideo(client, videoPath, 60)).rejects.toMatchObject({ message: expect.any(String) });
    await expect(signMaterial(client, pdfPath)).rejects.toMatchObject({ message: expect.any(String) });
    await expect(openMaterialFile(client, { file_path: pdfPath, type: 'PDF' })).rejects.toThrow('Arquivo não encontrado');
    const download = await client.storage.from('lesson-videos').download(videoPath);
    expect(download.data).toBeNull();
  });

  it('refuses progress (insert and update), a rating and a comment on the dripped lesson', async () => {
    const { client, id } = who.today;
    const insert = await client
      .from('progress')
      .upsert(
        { user_id: id, lesson_id: L.dripped, completed_at: new Date().toISOString() },
        { onConflict: 'user_id,lesson_id' },
      );
    expect(insert.error).not.toBeNull();
    const position = await client
      .from('progress')
      .upsert({ user_id: id, lesson_id: L.dripped, last_position_sec: 30 }, { onConflict: 'user_id,lesson_id' });
    expect(position.error).not.toBeNull();
    // A row that exists (e.g. written before the rule was set) cannot be updated either.
    await must(
      service.from('progress').insert({ user_id: id, lesson_id: L.dripped, last_position_sec: 5 }).select('id'),
    );
    const update = await client
      .from('progress')
      .update({ last_position_sec: 50, completed_at: new Date().toISOString() })
      .eq('lesson_id', L.dripped)
      .select('id');
    expect(update.data ?? []).toEqual([]);
    const upsert = await client
      .from('progress')
      .upsert(
        { user_id: id, lesson_id: L.dripped, completed_at: new Date().toISOString() },
        { onConflict: 'user_id,lesson_id' },
      );
    expect(upsert.error).not.toBeNull();
    const stored = await must(
      service
        .from('progress')
        .select('completed_at, last_position_sec')
        .eq('user_id', id)
        .eq('lesson_id', L.dripped)
        .single(),
    );
    expect(stored).toEqual({ completed_at: null, last_position_sec: 5 });

    const rating = await client
      .from('lesson_ratings')
      .upsert({ user_id: id, lesson_id: L.dripped, rating: 5 }, { onConflict: 'user_id,lesson_id' });
    expect(rating.error).not.toBeNull();
    const comment = await client
      .from('lesson_comments')
      .insert({ user_id: id, lesson_id: L.dripped, comment: 'posso ver?' });
    expect(comment.error).not.toBeNull();
  });

  it('keeps a preview lesson of the dripped module, the immediate module and a past date open', async () => {
    const { client, id } = who.today;
    for (const lessonId of [L.preview, L.open, L.past]) {
      const bundle = await fetchLessonBundle(client, { lessonId, userId: id });
      expect(bundle?.contents?.content).toContain('Conteúdo de');
      const progress = await client
        .from('progress')
        .upsert(
          { user_id: id, lesson_id: lessonId, completed_at: new Date().toISOString() },
          { onConflict: 'user_id,lesson_id' },
        );
      expect(progress.error).toBeNull();
    }
  });

  it('locks a module released on a future date for every student, however old the enrollment', async () => {
    for (const { client, id } of [who.today, who.eightDays]) {
      const bundle = await fetchLessonBundle(client, { lessonId: L.future, userId: id });
      expect(bundle!.contents).toBeNull();
      expect(bundle!.materials).toEqual([]);
      const progress = await client
        .from('progress')
        .upsert({ user_id: id, lesson_id: L.future, last_position_sec: 1 }, { onConflict: 'user_id,lesson_id' });
      expect(progress.error).not.toBeNull();
    }
  });
});

describe('after the release', () => {
  it('gives the student enrolled 8 days ago the content, video, material, comments and the writes', async () => {
    const { client, id } = who.eightDays;
    const bundle = await fetchLessonBundle(client, { lessonId: L.dripped, userId: id });
    expect(bundle?.contents?.video_url).toBe(videoPath);
    expect(bundle?.contents?.content).toContain('Aula liberada depois');
    expect(bundle?.materials.map((m) => m.file_path)).toEqual([pdfPath]);
    expect((await fetchLessonComments(client, L.dripped)).map((c) => c.comment)).toEqual(['Ótima aula da semana 2']);
    const video = await fetch(await signLessonVideo(client, videoPath, 60));
    expect(video.status).toBe(200);
    expect(Buffer.from(await video.arrayBuffer())).toEqual(MP4);
    const material = await openMaterialFile(client, { file_path: pdfPath, type: 'PDF' });
    expect('file' in material && material.file.size).toBeGreaterThan(PDF.length);

    const progress = await client
      .from('progress')
      .upsert(
        { user_id: id, lesson_id: L.dripped, completed_at: new Date().toISOString() },
        { onConflict: 'user_id,lesson_id' },
      );
    expect(progress.error).toBeNull();
    const rating = await client
      .from('lesson_ratings')
      .upsert({ user_id: id, lesson_id: L.dripped, rating: 4 }, { onConflict: 'user_id,lesson_id' });
    expect(rating.error).toBeNull();
    const comment = await client
      .from('lesson_comments')
      .insert({ user_id: id, lesson_id: L.dripped, comment: 'Liberou!' });
    expect(comment.error).toBeNull();
  });

  it('opens the module for the student enrolled today once the rule changes to a past date', async () => {
    // Staff edit the rule through the API (the module dialog's columns are granted).
    const edit = await staff
      .from('modules')
      .update({ release_mode: 'ON_DATE', release_after_days: null, release_on: spDate(-1) })
      .eq('id', modules.dripped)
      .select('id');
    expect(edit.error).toBeNull();
    expect(edit.data).toHaveLength(1);
    try {
      const { client, id } = who.today;
      const bundle = await fetchLessonBundle(client, { lessonId: L.dripped, userId: id });
      expect(bundle?.contents?.video_url).toBe(videoPath);
      expect((await fetch(await signLessonVideo(client, videoPath, 60))).status).toBe(200);
    } finally {
      await must(
        service
          .from('modules')
          .update({ release_mode: 'AFTER_ENROLLMENT', release_after_days: 7, release_on: null })
          .eq('id', modules.dripped)
          .select('id'),
      );
    }
    expect(
      (await fetchLessonBundle(who.today.client, { lessonId: L.dripped, userId: who.today.id }))!.contents,
    ).toBeNull();
  });
});

describe('staff', () => {
  it('see and sign everything, released or not', async () => {
    const { data } = await staff.auth.getUser();
    for (const lessonId of [L.dripped, L.future]) {
      const bundle = await fetchLessonBundle(staff, { lessonId, userId: data.user!.id });
      expect(bundle?.contents?.content).toContain('Conteúdo de');
      expect(bundle?.materials).toHaveLength(1);
    }
    expect((await fetch(await signLessonVideo(staff, videoPath, 60))).status).toBe(200);
    const comments = await staff.from('lesson_comments').select('comment').eq('lesson_id', L.dripped);
    expect(comments.data?.length).toBeGreaterThan(0);
  });
});

describe('the rule on the module', () => {
  const bad: [string, Record<string, unknown>][] = [
    ['days without the AFTER_ENROLLMENT mode', { release_after_days: 7 }],
    ['AFTER_ENROLLMENT without days', { release_mode: 'AFTER_ENROLLMENT' }],
    ['0 days', { release_mode: 'AFTER_ENROLLMENT', release_after_days: 0 }],
    ['more than 3650 days', { release_mode: 'AFTER_ENROLLMENT', release_after_days: 3651 }],
    ['ON_DATE without a date', { release_mode: 'ON_DATE' }],
    [
      'a date with the AFTER_ENROLLMENT mode',
      { release_mode: 'AFTER_ENROLLMENT', release_after_days: 7, release_on: '2027-01-10' },
    ],
    ['a date without a mode', { release_on: '2027-01-10' }],
    ['an unknown mode', { release_mode: 'WEEKLY' }],
  ];
  for (const [label, rule] of bad) {
    it(`refuses ${label}`, async () => {
      const r = await staff
        .from('modules')
        .insert({ course_id: courseId, title: `Inválido ${label}`, ...rule })
        .select('id');
      expect(r.error?.code).toBe('23514');
    });
  }

  it('defaults to IMMEDIATE, and staff can set each mode', async () => {
    const r = await staff
      .from('modules')
      .insert({ course_id: courseId, title: 'Padrão', order_index: 9 })
      .select('release_mode, release_after_days, release_on')
      .single();
    expect(r.data).toEqual({ release_mode: 'IMMEDIATE', release_after_days: null, release_on: null });
    const days = await staff
      .from('modules')
      .insert({ course_id: courseId, title: 'Dias', release_mode: 'AFTER_ENROLLMENT', release_after_days: 3650 })
      .select('id');
    expect(days.error).toBeNull();
    const date = await staff
      .from('modules')
      .insert({ course_id: courseId, title: 'Data', release_mode: 'ON_DATE', release_on: '2027-01-10' })
      .select('id');
    expect(date.error).toBeNull();
  });

  it('cannot be changed by a student', async () => {
    const r = await who.today.client
      .from('modules')
      .update({ release_mode: 'IMMEDIATE', release_after_days: null })
      .eq('id', modules.dripped)
      .select('id');
    expect(r.data ?? []).toEqual([]);
    const row = await must(service.from('modules').select('release_mode').eq('id', modules.dripped).single());
    expect(row).toEqual({ release_mode: 'AFTER_ENROLLMENT' });
  });
});
