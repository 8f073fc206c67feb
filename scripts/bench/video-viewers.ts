// bench:video's data, written in the backend's process (load-server.ts, BENCH_VIDEO_VIEWERS): Escola Demo's
// uploaded lesson "Fórmulas básicas" plays the fake host's demo video (as `npm start`'s streamDemoLesson
// leaves it: `video_url = 'video-host'` and a ready lesson_videos row for DEMO_VIDEO.guid), and `count` more
// students of the school, enrolled in its course, each signed in once (playback requires the token's
// sign-in, session_id, to exist and be the viewer's).
import type { Sql } from '../../local-supabase/db/engine.ts';
import { DEMO_VIDEO } from '../fake-bunny/demo-video.ts';

export const VIDEO_COURSE = 'c0000000-0000-4000-8000-000000000001';
export const VIDEO_LESSON = 'e0000000-0000-4000-8000-000000000003';

export interface VideoViewer {
  userId: string;
  signIn: string;
}

export async function prepareVideoViewers(db: Sql, count: number): Promise<VideoViewer[]> {
  await db.query(`update public.lesson_contents set video_url = 'video-host' where lesson_id = $1`, [VIDEO_LESSON]);
  await db.query(`select public.record_lesson_video_upload($1, 'bunny', $2)`, [VIDEO_LESSON, DEMO_VIDEO.guid]);
  await db.query(`select public.record_lesson_video_status('bunny', $1, 'ready', 100, array['240p', '360p', '720p'], 12)`, [DEMO_VIDEO.guid]);
  const { rows } = await db.query<{ id: string }>(
    `with u as (
       insert into auth.users (instance_id, id, aud, role, email, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', 'bench.video.' || n || '@exemplo.com.br', now(),
              '{"provider": "email", "providers": ["email"]}'::jsonb, jsonb_build_object('name', 'Viewer ' || n, 'school_id', $1::text), now(), now()
         from generate_series(1, $2::integer) n
       returning id)
     select id::text from u`,
    [DEMO_VIDEO.schoolId, count],
  );
  await db.query(`insert into public.enrollments (user_id, course_id, status) select unnest($1::uuid[]), $2, 'ACTIVE'`, [rows.map((r) => r.id), VIDEO_COURSE]);
  const signIns = await db.query<{ id: string; user_id: string }>(
    `insert into auth.sessions (user_id, aal) select unnest($1::uuid[]), 'aal1' returning id::text, user_id::text`,
    [rows.map((r) => r.id)],
  );
  return signIns.rows.map((s) => ({ userId: s.user_id, signIn: s.id }));
}
