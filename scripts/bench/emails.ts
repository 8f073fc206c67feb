// `npm run bench:emails` (issue 22): a 10,000-student import's "Acesso liberado" e-mails, measured on
// the local backend (PGlite, or DATABASE_URL's PostgreSQL).
//  1. Enqueue: the accounts and enrollments are made in SQL first (the import's own cost is the
//     admin-create-student calls, measured elsewhere); then one private.enqueue_email per account, as
//     createAccount does, timed: rows/s.
//  2. Drain: send-emails (real Deno) called with {limit: 200} until the outbox is empty, through SMTP
//     into the local inbox, each message with its 7-day link and its courses read at send time: messages/s.
// BENCH_EMAILS sets the count (default 10,000). Target: at least 50 messages/s locally.
import { performance } from 'node:perf_hooks';
import { startServer } from '../../local-supabase/server.ts';

const COUNT = Number(process.env.BENCH_EMAILS || 10_000);
const SCHOOL = '5c000000-0000-4000-8000-000000000001';
const COURSE = 'c0000000-0000-4000-8000-000000000001';

const server = await startServer({ port: 0, databaseUrl: process.env.DATABASE_URL || null, functionSecrets: { SITE_URL: 'http://localhost:5173' } }, { fresh: true, quiet: true, jobs: 'manual' });
const db = server.ctx.engine;
try {
  console.log(`${COUNT.toLocaleString('pt-BR')} accounts (${server.ctx.engine.kind})...`);
  await db.exec(`
    insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
    select '00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', 'bench.' || i || '@exemplo.com.br', '', now(),
           '{"provider": "email", "providers": ["email"]}', jsonb_build_object('name', 'Aluno ' || i, 'school_id', '${SCHOOL}'), now(), now()
      from generate_series(1, ${COUNT}) i;
    insert into public.enrollments (user_id, course_id) select id, '${COURSE}' from auth.users where email like 'bench.%';`);

  const t0 = performance.now();
  await db.exec(`select private.enqueue_email('${SCHOOL}', u.id, u.email, 'access_granted', 'account:' || u.id, jsonb_build_object('name', p.name))
                   from auth.users u join public.profiles p on p.id = u.id where u.email like 'bench.%'`);
  const enqueueMs = performance.now() - t0;
  const queued = (await db.query<{ n: number }>("select count(*)::int as n from public.email_outbox where status = 'queued'")).rows[0]!.n;
  console.log(`enqueue: ${queued.toLocaleString('pt-BR')} messages in ${(enqueueMs / 1000).toFixed(2)} s = ${Math.round(queued / (enqueueMs / 1000)).toLocaleString('pt-BR')} messages/s`);

  const t1 = performance.now();
  let sent = 0;
  let failed = 0;
  for (;;) {
    const res = await fetch(`${server.url}/functions/v1/send-emails`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${server.ctx.config.serviceRoleKey}` },
      body: JSON.stringify({ limit: 200 }),
    });
    const body = (await res.json()) as { claimed: number; sent: number; failed: number; retried: number };
    if (res.status !== 200) throw new Error(`send-emails answered ${res.status}: ${JSON.stringify(body)}`);
    if (body.claimed === 0) break;
    sent += body.sent;
    failed += body.failed + body.retried;
  }
  const drainS = (performance.now() - t1) / 1000;
  console.log(`drain:   ${sent.toLocaleString('pt-BR')} sent, ${failed} not, in ${drainS.toFixed(1)} s = ${(sent / drainS).toFixed(1)} messages/s through SMTP into the inbox (target ≥ 50)`);
  const left = (await db.query<{ n: number }>("select count(*)::int as n from public.email_outbox where status <> 'sent'")).rows[0]!.n;
  if (left) console.log(`left in the outbox: ${left}`);
} finally {
  await server.close();
}
