// `npm run bench:rest`: a fresh in-memory local-supabase (migrated and seeded), 10 concurrent
// supabase-js clients running a typical embedded select (courses with modules and lessons) for
// 10 s. Prints requests per second and p50/p95 latency. Not part of `npm test`.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { startServer } from '../../local-supabase/server.ts';

const CLIENTS = Number(process.env.BENCH_CLIENTS || 10);
const SECONDS = Number(process.env.BENCH_SECONDS || 10);
const STUDENT = { email: 'aluno@escola-demo.com.br', password: 'senha123' };
const QUERY =
  'id, title, slug, price, modules(id, title, order_index, lessons(id, title, video_type, duration_sec, order_index, is_preview))';


const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const server = await startServer({ port: 0 }, { fresh: true, quiet: true });
  const { anonKey, serviceRoleKey } = server.ctx.config;
  const options = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } };
  let client: SupabaseClient = createClient(server.url, anonKey, options);
  let who = `student ${STUDENT.email}`;
  const { error: signInError } = await client.auth.signInWithPassword(STUDENT);
  if (signInError) {
    client = createClient(server.url, serviceRoleKey, options);
    who = `service role (sign-in failed: ${signInError.message})`;
  }

  // The query must work before it is timed; fall back to columns every schema has.
  let select = QUERY;
  const probe = await client.from('courses').select(select).order('title');
  if (probe.error) {
    select = 'id, title, modules(id, title, lessons(id, title))';
    const retry = await client.from('courses').select(select).order('title');
    if (retry.error) throw new Error(`benchmark query failed: ${retry.error.message}`);
  }
  const rows = (await client.from('courses').select(select).order('title')).data ?? [];

  const latencies: number[] = [];
  let errors = 0;
  const until = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const start = performance.now();
      const { error } = await client.from('courses').select(select).order('title');
      latencies.push(performance.now() - start);
      if (error) errors++;
    }
  };
  const memBefore = process.memoryUsage().rss;
  const started = performance.now();
  await Promise.all(Array.from({ length: CLIENTS }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);

  console.log(`engine: ${server.ctx.engine.kind}; caller: ${who}`);
  console.log(`query: GET /rest/v1/courses?select=${select} (${rows.length} courses visible)`);
  console.log(`clients: ${CLIENTS}, duration: ${elapsed.toFixed(1)} s, requests: ${latencies.length}, errors: ${errors}`);
  console.log(`requests/s: ${(latencies.length / elapsed).toFixed(1)}`);
  console.log(`latency p50: ${percentile(latencies, 50).toFixed(1)} ms, p95: ${percentile(latencies, 95).toFixed(1)} ms`);
  console.log(`rss: ${(memBefore / 1e6).toFixed(0)} MB before, ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB after`);
  await server.close();
}

await main();
