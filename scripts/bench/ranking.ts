// `npm run bench:ranking`: the home's "Ranking" card (issue 26) on the large school of
// scripts/bench/large-school.ts (5,000 students, 100,000 progress rows, half completed this month),
// with ranking on and points spread out (up to 14 more lessons each), quiz passes and marked answers.
// Times public.school_ranking() as a student in the middle of the ranking: through the API as the SPA
// calls it (supabase-js), and inside the database alone. Median of BENCH_RANKING_RUNS (default 21),
// after a warm-up. Target: ≤ 100 ms. PGlite by default; with DATABASE_URL, a throwaway database of
// that server. Not part of `npm test`.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createClient } from '@supabase/supabase-js';
import { startServer } from '../../local-supabase/server.ts';
import { BIG, PASSWORD, SCHOOL, SEED, STUDENTS, median } from './large-school.ts';

const RUNS = Number(process.env.BENCH_RANKING_RUNS || 21);
const TARGET_MS = 100;

const RANKING_SEED = `
insert into public.school_discussion_settings (school_id, ranking_enabled) values ('${SCHOOL}', true);

-- Points spread out: student n completes (n mod 15) more lessons of the big course this month.
insert into public.progress (user_id, lesson_id, completed_at)
select p.id, l.id, now()
from (select id, row_number() over (order by id) rn from public.profiles where school_id = '${SCHOOL}') p
join (select id, row_number() over (order by id) rn
        from (select id from public.lessons where course_id = '${BIG}' order by id offset 20 limit 14) x) l
  on l.rn <= p.rn % 15;

-- A quiz on the big course's last lesson, passed this month by every 7th student (written as the
-- grading function leaves it), and a question with a reply marked as the answer for every 50th.
insert into public.quizzes (id, lesson_id, pass_mark)
select '9a000000-0000-4000-8000-0000000b0001', id, 70 from public.lessons where course_id = '${BIG}' order by id desc limit 1;
insert into public.quiz_versions (id, quiz_id, course_id, number, questions)
values ('9c000000-0000-4000-8000-0000000b0001', '9a000000-0000-4000-8000-0000000b0001', '${BIG}', 1, '[{"id": "q1"}]');
insert into public.quiz_attempts (quiz_id, version_id, user_id, course_id, lesson_id, number, layout, submitted_at, status, score, passed, pass_mark)
select '9a000000-0000-4000-8000-0000000b0001', '9c000000-0000-4000-8000-0000000b0001', p.id, '${BIG}',
       (select lesson_id from public.quizzes where id = '9a000000-0000-4000-8000-0000000b0001'), 1, '[]', now(), 'graded', 100, true, 70
from (select id, row_number() over (order by id) rn from public.profiles where school_id = '${SCHOOL}') p
where p.rn % 7 = 0;

insert into public.lesson_comments (id, user_id, lesson_id, comment)
select '00000000-0000-4000-8000-0000000b0c01', p.id, l.id, 'Qual a diferença entre PROCV e PROCX?'
from (select id from public.profiles where school_id = '${SCHOOL}' order by id limit 1) p,
     (select id from public.lessons where course_id = '${BIG}' order by id limit 1) l;
insert into public.lesson_comments (user_id, lesson_id, parent_id, comment, marked_answer_at)
select p.id, c.lesson_id, c.id, 'O PROCX procura em qualquer direção.', now()
from public.lesson_comments c,
     (select id, row_number() over (order by id) rn from public.profiles where school_id = '${SCHOOL}') p
where c.id = '00000000-0000-4000-8000-0000000b0c01' and p.rn % 50 = 0 and p.rn <= 50;
`;

async function throwawayDatabase(url: string) {
  const name = `bench_ranking_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function main() {
  const t0 = performance.now();
  const db = process.env.DATABASE_URL ? await throwawayDatabase(process.env.DATABASE_URL) : null;
  const server = await startServer({ port: 0, databaseUrl: db?.url ?? null }, { fresh: true, quiet: true });
  try {
    const { engine } = server.ctx;
    await engine.exec(SEED);
    await engine.exec(RANKING_SEED);
    const count = async (sql: string) => (await engine.query<{ n: number }>(sql)).rows[0]!.n;
    const completed = await count(`select count(*)::int n from public.progress where completed_at is not null`);
    const ranked = await count(`select count(*)::int n from private.ranking_months where school_id = '${SCHOOL}'`);
    console.log(`engine: ${engine.kind}; seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    console.log(`school: ${completed} completed lessons this month, ${ranked} students with points`);

    // A student in the middle: the one at position ~2,500 of 5,000.
    const me = (
      await engine.query<{ email: string; points: number }>(
        `select u.email, r.points from private.ranking_months r join auth.users u on u.id = r.user_id
          where r.school_id = '${SCHOOL}' order by r.points desc, r.user_id offset ${Math.floor(STUDENTS / 2)} limit 1`,
      )
    ).rows[0]!;
    const client = createClient(server.url, server.ctx.config.anonKey, { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } });
    const { data: session, error } = await client.auth.signInWithPassword({ email: me.email, password: PASSWORD });
    if (error) throw error;

    const api: number[] = [];
    const inDb: number[] = [];
    let answer: { top: unknown[]; me: { position: number; points: number } } | null = null;
    for (let run = 0; run <= RUNS; run++) {
      let t = performance.now();
      const r = await client.rpc('school_ranking');
      if (r.error) throw r.error;
      const elapsed = performance.now() - t;
      answer = r.data as typeof answer;
      t = performance.now();
      await engine.transaction(async (tx) => {
        await tx.query("select set_config('role', 'authenticated', true), set_config('request.jwt.claims', $1, true)", [
          JSON.stringify({ sub: session.user!.id, role: 'authenticated', aud: 'authenticated' }),
        ]);
        await tx.query('select public.school_ranking()');
      });
      if (run === 0) continue; // warm-up
      api.push(elapsed);
      inDb.push(performance.now() - t);
    }
    console.log(`caller: ${me.email}, ${answer!.me.points} points, position ${answer!.me.position}; top: ${answer!.top.length}`);
    console.log(`school_ranking(), median of ${RUNS}: ${median(api).toFixed(1)} ms through the API, ${median(inDb).toFixed(1)} ms in the database (target ≤ ${TARGET_MS} ms)`);
    if (median(api) > TARGET_MS) process.exitCode = 1;
  } finally {
    await server.close();
    await db?.drop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
