// Child process of scripts/bench/load.ts: a fresh local-supabase (in-memory PGlite, or the empty
// PostgreSQL database of DATABASE_URL), migrated and seeded, plus the large school and the load
// benchmark's extra rows. It runs in its own process so the load generator does not share its event
// loop. With PGlite the database lives only in here, which is why the seed is applied here too.
// BENCH_SEED=demo: the demo seed alone (bench:rest, bench:video). BENCH_VIDEO_VIEWERS=N (bench:video): the demo's
// uploaded lesson plays the fake host's demo video, and N more students of Escola Demo watch it, each
// signed in once (their ids and sign-ins in the ready line's `viewers`).
// Prints one line `ready {"url", "anonKey", "engine", "counts", "seedSeconds", "viewers"?}` when it can take load;
// stops on SIGTERM/SIGINT, and when its stdin closes (the parent died without killing it).
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startServer, type RunningServer } from '../../local-supabase/server.ts';
import { EXTRA, SCHOOL, SEED } from './large-school.ts';
import { prepareVideoViewers, type VideoViewer } from './video-viewers.ts';

const COUNTS = `
select
  (select count(*)::int from public.courses where school_id = '${SCHOOL}') as courses,
  (select count(*)::int from public.lessons l join public.courses c on c.id = l.course_id where c.school_id = '${SCHOOL}') as lessons,
  (select count(*)::int from public.profiles where school_id = '${SCHOOL}') as students,
  (select count(*)::int from public.enrollments e join public.courses c on c.id = e.course_id where c.school_id = '${SCHOOL}') as enrollments,
  (select count(*)::int from public.progress p join public.courses c on c.id = p.course_id where c.school_id = '${SCHOOL}') as progress,
  (select count(*)::int from public.lesson_comments where course_id in (select id from public.courses where school_id = '${SCHOOL}')) as comments
`;

// Stop requests may come while startServer is still migrating: then stop once it is up (it owns a temp
// folder by then). close() removes that folder, but close() may not finish (e.g. stopped in the middle
// of the seed), so stop() removes it too.
let server: RunningServer | null = null;
let stopping = false;
async function stop(code = 0) {
  stopping = true;
  if (!server) return; // startServer is still running; the code after it sees `stopping`
  const tempDir = path.dirname(server.ctx.storageDir);
  await Promise.race([server.close().catch(() => {}), new Promise((r) => setTimeout(r, 5000))]);
  if (path.basename(tempDir).startsWith('local-supabase-')) rmSync(tempDir, { recursive: true, force: true });
  process.exit(code);
}
process.once('SIGINT', () => stop());
process.once('SIGTERM', () => stop());
process.stdin.once('close', () => stop());
process.stdin.resume();

const port = Number(process.env.LOCAL_SUPABASE_PORT || 0);
// Server log lines (internal errors, boot) go to stderr; the parent prints them with a prefix.
server = await startServer({ port }, { fresh: true, log: (line) => console.error(line) });
if (stopping) await stop();
const { engine, config } = server.ctx;

try {
  const t0 = performance.now();
  // BENCH_SEED=demo: only the demo seed (bench:rest); otherwise the large school too (bench:load).
  if (process.env.BENCH_SEED !== 'demo') await engine.exec(SEED + EXTRA);
  const viewers: VideoViewer[] | undefined = process.env.BENCH_VIDEO_VIEWERS ? await prepareVideoViewers(engine, Number(process.env.BENCH_VIDEO_VIEWERS)) : undefined;
  // Fresh statistics for the planner after the bulk load (PostgreSQL's autovacuum would get there later).
  await engine.exec('analyze');
  const seedSeconds = Number(((performance.now() - t0) / 1000).toFixed(1));
  const [counts] = (await engine.query<Record<string, number>>(COUNTS)).rows;
  console.log(`ready ${JSON.stringify({ url: server.url, anonKey: config.anonKey, engine: engine.kind, counts, seedSeconds, viewers })}`);
} catch (e) {
  // Unless we are stopping (which breaks the seed on purpose): a broken seed, say why and stop; the
  // parent sees the exit before `ready`.
  if (!stopping) {
    console.error(e);
    await stop(1);
  }
}
