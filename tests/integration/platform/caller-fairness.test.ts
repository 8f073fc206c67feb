// One caller cannot stall everyone else's database requests (issue 37, attacks on the fixes): a student
// who keeps more expensive requests in flight than the engine has connections (PGlite one, PostgreSQL a
// pool of 10) made another student's course list wait 8 to 16 s. local-supabase now gives each caller
// (the JWT's subject, else the client address; the service role its own) at most its share of the
// connections (PGlite 1, PostgreSQL 2), queues the rest in the caller's own queue and serves callers in
// turn, so another account waits for one statement at most; past 50 waiting, the caller gets 429.
// The order is the database's own: each probe call writes its start and end with a sequence number.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../../local-supabase/db/engine.ts';
import { CALLER_QUEUE_BOUND, databaseLanes } from '../../../local-supabase/http.ts';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { EMAIL, SCHOOL, USER } from '../rls/seed.ts';

const backend = useBackend();
let db: Engine;
let attacker: string;
let victim: string;
let student: string;
/** Statements one caller may run at once: PGlite has one connection, PostgreSQL a pool of 10 (a quarter each). */
let share: number;
/** More requests than the engine has connections, as the attack sent. */
let flood: number;

const token = async (email: string) => (await (await backend.signIn(email)).auth.getSession()).data.session!.access_token;

beforeAll(async () => {
  db = backend.server.ctx.engine;
  share = db.kind === 'pglite' ? 1 : 2;
  flood = db.kind === 'pglite' ? 3 : 12;
  // A call that works p_seconds (a loop) and writes when it started and ended, in the database's order.
  await db.exec(`
    create sequence public.fairness_probe_order;
    create table public.fairness_probe_log (n bigint primary key, who text not null, event text not null);
    create function public.fairness_probe(p_who text, p_seconds float8) returns text
    language plpgsql volatile security definer set search_path = '' as $$
    declare
      v_end timestamptz := clock_timestamp() + make_interval(secs => p_seconds);
    begin
      insert into public.fairness_probe_log values (nextval('public.fairness_probe_order'), p_who, 'start');
      loop
        exit when clock_timestamp() >= v_end;
      end loop;
      insert into public.fairness_probe_log values (nextval('public.fairness_probe_order'), p_who, 'end');
      return p_who;
    end $$;
    grant execute on function public.fairness_probe(text, float8) to anon, authenticated, service_role;`);
  [attacker, victim, student] = await Promise.all([token(EMAIL.aluno), token(EMAIL.alunoRival), token(EMAIL.aluna)]);
  expect((await probe(attacker, 'warm-up', 0)).status).toBe(200); // the schema cache knows the function
});

function probe(bearer: string, who: string, seconds: number) {
  return fetch(`${backend.url}/rest/v1/rpc/fairness_probe`, {
    method: 'POST',
    headers: { apikey: ANON_KEY, Authorization: `Bearer ${bearer}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ p_who: who, p_seconds: seconds }),
  });
}

/** The probe's log: who started and ended, in the order the database ran them. */
async function log(): Promise<{ who: string; event: string }[]> {
  return (await db.query<{ who: string; event: string }>('select who, event from public.fairness_probe_log order by n')).rows;
}

/** The attacker's requests as the server holds them: running and waiting (the server's own count). */
const attackerLane = () => databaseLanes(db).snapshot().find((l) => l.lane === `user:${USER.aluno}`) ?? { running: 0, waiting: 0 };

describe('one caller’s expensive requests and everyone else', () => {
  it('another account, and the service role, wait for one of the attacker’s statements at most, not for its backlog', { timeout: 90_000 }, async () => {
    await db.query('truncate public.fairness_probe_log');
    // The attacker keeps more expensive requests in flight than the engine has connections.
    const flooding = Array.from({ length: flood }, () => probe(attacker, 'attacker', 3));
    await expect.poll(attackerLane, { timeout: 10_000 }).toMatchObject({ running: share, waiting: flood - share });
    const [victimAnswer, serviceAnswer] = await Promise.all([probe(victim, 'victim', 0), probe(SERVICE_ROLE_KEY, 'service', 0)]);
    expect(victimAnswer.status).toBe(200);
    expect(await victimAnswer.json()).toBe('victim');
    expect(serviceAnswer.status).toBe(200);
    const attacks = await Promise.all(flooding);
    expect(attacks.map((r) => r.status)).toEqual(attacks.map(() => 200)); // the attacker is served too, in turn

    const order = await log();
    const startOf = (who: string) => order.findIndex((e) => e.who === who && e.event === 'start');
    const attackerStartsBefore = (who: string) => order.slice(0, startOf(who)).filter((e) => e.who === 'attacker' && e.event === 'start').length;
    // Before the fix: every connection was the attacker's (PGlite 3, PostgreSQL 10 starts before the victim's).
    expect(attackerStartsBefore('victim')).toBeLessThanOrEqual(share);
    expect(attackerStartsBefore('service')).toBeLessThanOrEqual(share);
    // The victim ended before the attacker's next statement began.
    const victimEnd = order.findIndex((e) => e.who === 'victim' && e.event === 'end');
    const nextAttack = order.findIndex((e, i) => i > startOf('victim') && e.who === 'attacker' && e.event === 'start');
    expect(victimEnd).toBeLessThan(nextAttack);
    expect(order.filter((e) => e.who === 'attacker' && e.event === 'end')).toHaveLength(flood);
  });

  it(`past ${CALLER_QUEUE_BOUND} waiting requests the caller gets 429, which never ran; another account is served meanwhile`, { timeout: 90_000 }, async () => {
    await db.query('truncate public.fairness_probe_log');
    const holding = Array.from({ length: share }, () => probe(attacker, 'holding', 3));
    await expect.poll(attackerLane, { timeout: 10_000 }).toMatchObject({ running: share });
    const other = probe(victim, 'victim', 0);
    const burst = await Promise.all(
      Array.from({ length: CALLER_QUEUE_BOUND + 5 }, async () => {
        const r = await probe(attacker, 'burst', 0);
        return { status: r.status, body: await r.json() };
      }),
    );
    const refused = burst.filter((r) => r.status === 429);
    expect(refused).toHaveLength(5);
    expect(refused[0]!.body).toEqual({
      code: 'LS429',
      details: `local-supabase runs at most ${CALLER_QUEUE_BOUND} waiting requests per caller`,
      hint: 'Wait for your earlier requests to finish.',
      message: 'Too many requests waiting for the database',
    });
    expect(burst.filter((r) => r.status === 200)).toHaveLength(CALLER_QUEUE_BOUND);
    expect((await Promise.all(holding)).map((r) => r.status)).toEqual(holding.map(() => 200));
    expect((await other).status).toBe(200);
    // The refused ones did nothing; the others all ran.
    const order = await log();
    expect(order.filter((e) => e.who === 'burst' && e.event === 'end')).toHaveLength(CALLER_QUEUE_BOUND);
    // The same caller is served again once its queue drains.
    expect((await probe(attacker, 'after', 0)).status).toBe(200);
  });

  it('control: a student’s page requests in parallel all succeed, as do anonymous visitors’ at once', async () => {
    const headers = { apikey: ANON_KEY, Authorization: `Bearer ${student}` };
    const paths = [
      '/rest/v1/courses?select=id,title,modules(id,lessons(id))',
      `/rest/v1/schools?select=id,name&id=eq.${SCHOOL.demo}`,
      '/rest/v1/enrollments?select=course_id,status',
      '/rest/v1/progress?select=lesson_id,completed_at',
      '/rest/v1/profiles?select=id,name',
      '/rest/v1/notifications?select=id&limit=20',
    ];
    const answers = await Promise.all([...paths, ...paths].map((p) => fetch(`${backend.url}${p}`, { headers })));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const visitors = await Promise.all(
      Array.from({ length: 20 }, () => fetch(`${backend.url}/rest/v1/schools?select=slug&slug=eq.escola-demo`, { headers: { apikey: ANON_KEY } })),
    );
    expect(visitors.map((r) => r.status)).toEqual(visitors.map(() => 200));
  });
});
