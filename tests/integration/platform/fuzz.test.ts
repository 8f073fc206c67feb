// A bounded property-based fuzz run (fast-check) of what an attacker with the public anon key, or a
// signed-in student, can send on localhost: random REST query strings over the real tables, random
// storage object names and paths, random JSON bodies to the webhooks and functions. For every answer:
// no 5xx, no stack trace, file path or SQL text; and afterwards not one row of the protected tables
// changed. The seed is fixed, so CI runs the same inputs each time; FUZZ_SEED=<n> explores (or
// replays) others. The number of runs keeps the file well under a minute.
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ANON_KEY, useBackend } from '../harness.ts';

const SEED = Number(process.env.FUZZ_SEED || 20261123);
const runs = (n: number) => ({ numRuns: n, seed: SEED, endOnFailure: true });

const backend = useBackend();
let studentJwt: string;
let demoSchoolId: string;
let demoCourseId: string;
/** public table → its columns, read from the database, so filters and selects hit real columns. */
let columns: Record<string, string[]>;

/** Everything a student or anon must never change; payments and certificates too (functions write them). */
const PROTECTED = [
  'public.schools', 'public.profiles', 'public.user_roles', 'public.courses', 'public.modules', 'public.lessons',
  'public.lesson_contents', 'public.materials', 'public.enrollments', 'public.progress', 'public.lesson_comments',
  'public.lesson_ratings', 'public.announcements', 'public.integration_settings', 'public.system_config',
  'public.payments', 'public.certificates', 'private.integration_secrets', 'private.school_webhook_secrets',
  'private.system_secrets', 'private.payment_events', 'storage.objects', 'storage.buckets', 'auth.users',
];

async function checksum(): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const t of PROTECTED) {
    const { rows } = await backend.server.ctx.engine.query<{ sum: string | null; n: number }>(
      `select md5(coalesce(string_agg(x::text, '|' order by x::text), '')) as sum, count(*)::int as n from ${t} x`,
    );
    out[t] = `${rows[0]!.n}:${rows[0]!.sum}`;
  }
  return out;
}

beforeAll(async () => {
  const { engine } = backend.server.ctx;
  const cols = await engine.query<{ table_name: string; column_name: string }>(
    `select table_name, column_name from information_schema.columns where table_schema = 'public' order by table_name, ordinal_position`,
  );
  columns = {};
  for (const r of cols.rows) (columns[r.table_name] ??= []).push(r.column_name);
  demoSchoolId = (await engine.query<{ id: string }>(`select id::text from public.schools where slug = 'escola-demo'`)).rows[0]!.id;
  demoCourseId = (await engine.query<{ id: string }>(`select id::text from public.courses where school_id = $1 limit 1`, [demoSchoolId])).rows[0]!.id;
  // Signed in before the checksum: a sign-in writes auth.users (last_sign_in_at) legitimately.
  const student = await backend.signIn('aluno@escola-demo.com.br');
  studentJwt = (await student.auth.getSession()).data.session!.access_token;
}, 180_000);

/** What no answer may contain: stack frames, source paths, our SQL, driver or engine internals. */
const LEAKS: [string, RegExp][] = [
  ['stack frame', /\bat [\w$.<>[\] ]+ \(|\n\s+at /],
  ['source path', /(file:\/\/|\/work\/|node_modules|\.tsx?:\d+|\.m?js:\d+)/],
  ['SQL text', /set_config\(|request\.jwt\.claims|\bselect\b[^"]{0,200}\bfrom\s+(public|storage|auth|private)\./i],
  ['internals', /pglite|node:internal|PostgresError|pg_catalog\.|Internal server error/i],
];

async function expectClean(res: Response, what: string): Promise<void> {
  const text = await res.text();
  expect(res.status, `${what} → ${res.status} ${text.slice(0, 300)}`).toBeLessThan(500);
  for (const [name, re] of LEAKS) expect(re.test(text), `${what}: ${name} in ${text.slice(0, 500)}`).toBe(false);
}

const callers = () => [
  { name: 'anon', headers: { apikey: ANON_KEY } as Record<string, string> },
  { name: 'student', headers: { apikey: ANON_KEY, Authorization: `Bearer ${studentJwt}` } },
];
const caller = fc.constantFrom(0, 1);

// ── arbitraries ────────────────────────────────────────────────────────────────────────────────────
const nasty = fc.constantFrom(
  '', ' ', "'", '"', '\\', '%', '%25', '*', '(', ')', ',', '.', ':', '::text', ';', '--', '/*', 'null', 'NULL', 'true',
  '\u0000', '\uD800', '😀', 'ç', '1e309', '-1', '0', '2147483648', '9'.repeat(40), '00000000-0000-0000-0000-000000000000',
  "'); drop table public.schools; --", 'public.schools', '../../etc/passwd', '{}', '[]', '{"a":1}', 'a'.repeat(3000),
);
const text = fc.oneof(nasty, fc.string({ maxLength: 30 }), fc.string({ unit: 'binary', maxLength: 20 }));
const OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'match', 'imatch', 'is', 'isdistinct', 'in', 'cs', 'cd', 'ov', 'sl', 'sr', 'nxl', 'nxr', 'adj', 'fts', 'plfts', 'phfts', 'wfts', 'not.eq', 'not.in', 'not.is', 'eq(any)', 'like(all)', 'bogus'];

/** Mostly well-formed parts (so queries reach the database), now and then a hostile one. */
const mostly = <T,>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: bad });

/** `hostile`: some parts malformed; otherwise only well-formed queries, to reach the database. */
function restQuery(table: string, hostile = true) {
  const mostly = <T,>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) => (hostile ? fc.oneof({ weight: 4, arbitrary: good }, { weight: 1, arbitrary: bad }) : good);
  const real = columns[table] ?? ['id'];
  const col = mostly(fc.constantFrom(...real), fc.oneof(fc.constantFrom('nao_existe', '*', 'id->>x', 'id::text'), text));
  const plausible = fc.oneof(fc.uuid().map(String), fc.integer({ min: -10, max: 1000 }).map(String), fc.constantFrom('true', 'false', 'null', 'ACTIVE', 'escola-demo', '2026-01-01', 'a%', '*a*'), fc.string({ maxLength: 8 }));
  const value = mostly(plausible, fc.oneof(text, fc.constantFrom('(1,2)', '("a,b",c)', '{a,b}', '[1,2]', 'not_null', 'unknown')));
  const op = mostly(fc.constantFrom('eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'like', 'ilike', 'is', 'in', 'not.eq', 'not.is'), fc.constantFrom(...OPERATORS));
  const filter = fc.oneof(
    { weight: 6, arbitrary: fc.tuple(col, op, value, fc.constantFrom('null', 'not_null', 'true', 'false', 'unknown')).map(([c, o, v, is]) =>
      [c, o === 'in' || o === 'not.in' ? `${o}.(${v})` : o === 'is' || o === 'not.is' ? `${o}.${is}` : `${o}.${v}`] as const) },
    { weight: 1, arbitrary: fc.tuple(col, value, col).map(([a, x, b]) => ['or', `(${a}.eq.${x},${b}.not.is.null)`] as const) },
    { weight: hostile ? 1 : 0, arbitrary: fc.tuple(text, text).map(([k, v]) => [k, v] as const) },
  );
  const embed = fc.constantFrom(...Object.keys(columns)).map((t) => `${t}(*)`);
  const select = mostly(
    fc.oneof(fc.constant('*'), fc.subarray(real, { minLength: 1 }).map((a) => a.join(',')), fc.tuple(fc.constantFrom(...real), embed).map(([c, e]) => `${c},${e}`), fc.constantFrom('count()', 'id::text', 'x:id')),
    fc.array(fc.oneof(col, embed, text), { minLength: 1, maxLength: 4 }).map((a) => a.join(',')),
  );
  const order = fc.tuple(col, mostly(fc.constantFrom('', '.asc', '.desc', '.nullsfirst', '.desc.nullslast'), fc.constantFrom('.sideways', '.asc.asc', ','))).map(([c, d]) => `${c}${d}`);
  const num = mostly(fc.integer({ min: 0, max: 100 }).map(String), fc.oneof(fc.integer({ min: -5, max: -1 }).map(String), text));
  return fc.record(
    {
      select,
      filters: fc.array(filter, { maxLength: 3 }),
      order,
      limit: num,
      offset: num,
      range: mostly(fc.oneof(fc.constant(null), fc.tuple(fc.nat(50), fc.nat(50)).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`)), fc.oneof(fc.tuple(fc.integer({ min: -3, max: 50 }), fc.integer({ min: -3, max: 50 })).map(([a, b]) => `${a}-${b}`), text)),
      prefer: mostly(fc.constantFrom(null, null, 'count=exact', 'count=planned', 'count=estimated', 'return=representation', 'count=exact, tx=rollback'), fc.constantFrom('handling=strict, bogus', 'count=exact, count=none', safeHeader('\u00e7'))),
    },
    { requiredKeys: ['select', 'filters'] },
  );
}

function restUrl(table: string, q: { select: string; filters: (readonly [string, string])[]; order?: string; limit?: string; offset?: string }): string {
  const params = new URLSearchParams({ select: q.select });
  for (const [k, v] of q.filters) params.append(k, v);
  if (q.order !== undefined) params.set('order', q.order);
  if (q.limit !== undefined) params.set('limit', q.limit);
  if (q.offset !== undefined) params.set('offset', q.offset);
  return `${backend.url}/rest/v1/${enc(table)}?${params}`;
}

const safeHeader = (v: string) => v.replace(/[^\x20-\x7e]/g, '?');
/** encodeURIComponent refuses lone surrogates; a client sends U+FFFD for them. */
const enc = (v: string) => encodeURIComponent(v.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));

describe(`fuzz (seed ${SEED})`, () => {
  let before: Record<string, string>;
  beforeAll(async () => {
    before = await checksum();
  });

  it('REST reads: random filters, selects, orders, ranges and limits over the real tables', { timeout: 120_000 }, async () => {
    const tables = Object.keys(columns);
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(fc.constantFrom(...tables, 'nao_existe', 'rpc/nao_existe'), fc.boolean()).chain(([t, hostile]) => fc.tuple(fc.constant(t), restQuery(t, hostile), caller)),
        async ([table, q, who]) => {
          const c = callers()[who]!;
          const headers: Record<string, string> = { ...c.headers };
          if (q.range) headers.Range = safeHeader(q.range);
          if (q.prefer) headers.Prefer = q.prefer;
          const url = restUrl(table, q);
          await expectClean(await fetch(url, { headers }), `${c.name} GET ${url}`);
        },
      ),
      runs(600),
    );
  });

  it('REST writes an anon or student may not make change nothing', { timeout: 120_000 }, async () => {
    // Tables neither role may write (profiles, progress, comments and ratings have own-row rights).
    const tables = ['schools', 'courses', 'modules', 'lessons', 'lesson_contents', 'materials', 'enrollments', 'user_roles', 'announcements', 'integration_settings', 'system_config', 'payments', 'certificates'];
    const body = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.record({ name: text, school_id: fc.constant(null), is_active: fc.boolean(), role: fc.constant('SUPER_ADMIN') }));
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...tables).chain((t) => fc.tuple(fc.constant(t), restQuery(t), fc.constantFrom('POST', 'PATCH', 'DELETE'), body, caller)),
        async ([table, q, method, b, who]) => {
          const c = callers()[who]!;
          const url = restUrl(table, { ...q, select: 'id' });
          const res = await fetch(url, {
            method,
            headers: { ...c.headers, 'Content-Type': 'application/json', Prefer: q.prefer ?? 'return=minimal' },
            body: method === 'DELETE' ? undefined : JSON.stringify(b),
          });
          await expectClean(res, `${c.name} ${method} ${url}`);
        },
      ),
      runs(250),
    );
  });

  it('storage: random bucket and object names and paths', { timeout: 120_000 }, async () => {
    const bucket = fc.oneof(fc.constantFrom('avatars', 'school-banners', 'course-thumbnails', 'lesson-videos', 'announcement-videos', 'lesson-materials', 'nao-existe'), text);
    const segment = mostly(
      fc.oneof(fc.constantFrom(demoSchoolId, 'arquivo.png', 'foto.jpg', 'aula 1.pdf', 'pasta'), fc.stringMatching(/^[a-z0-9 ._-]{1,12}$/)),
      fc.oneof(text, fc.constantFrom('..', '.', '', '%2e%2e', '%2F', 'a/b', '\\')),
    );
    const name = fc.array(segment, { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));
    const op = fc.constantFrom('GET public', 'GET auth', 'HEAD', 'info', 'list', 'sign', 'POST upload', 'PUT upload', 'DELETE', 'DELETE many', 'copy');
    await fc.assert(
      fc.asyncProperty(bucket, name, op, caller, fc.jsonValue({ maxDepth: 2 }), async (b, n, o, who, json) => {
        const c = callers()[who]!;
        // Paths as a client would send them: each segment percent-encoded, or raw for the nastier cases.
        const encoded = n.split('/').map(enc).join('/');
        const base = `${backend.url}/storage/v1`;
        const B = enc(b);
        const jsonInit = (method: string, body: unknown): RequestInit => ({ method, headers: { ...c.headers, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
        let res: Response;
        switch (o) {
          case 'GET public': res = await fetch(`${base}/object/public/${B}/${encoded}`, { headers: c.headers }); break;
          case 'GET auth': res = await fetch(`${base}/object/authenticated/${B}/${encoded}`, { headers: c.headers }); break;
          case 'HEAD': res = await fetch(`${base}/object/${B}/${encoded}`, { method: 'HEAD', headers: c.headers }); break;
          case 'info': res = await fetch(`${base}/object/info/${B}/${encoded}`, { headers: c.headers }); break;
          case 'list': res = await fetch(`${base}/object/list/${B}`, jsonInit('POST', { prefix: n, limit: 10, offset: 0, search: n, sortBy: json })); break;
          case 'sign': res = await fetch(`${base}/object/sign/${B}/${encoded}`, jsonInit('POST', { expiresIn: json })); break;
          case 'POST upload':
          case 'PUT upload':
            res = await fetch(`${base}/object/${B}/${encoded}`, {
              method: o.startsWith('POST') ? 'POST' : 'PUT',
              headers: { ...c.headers, 'Content-Type': 'image/png', 'x-upsert': 'true' },
              body: Buffer.from(JSON.stringify(json)),
            });
            break;
          case 'DELETE': res = await fetch(`${base}/object/${B}/${encoded}`, { method: 'DELETE', headers: c.headers }); break;
          case 'DELETE many': res = await fetch(`${base}/object/${B}`, jsonInit('DELETE', { prefixes: [n, json] })); break;
          case 'copy': res = await fetch(`${base}/object/copy`, jsonInit('POST', { bucketId: b, sourceKey: n, destinationKey: `${n}-copia`, json })); break;
        }
        await expectClean(res, `${c.name} ${o} ${b} ${n}`);
      }),
      runs(400),
    );
  });

  it('webhooks and functions: random bodies and secrets', { timeout: 180_000 }, async () => {
    const fn = fc.constantFrom('tenant-webhook', 'student-webhook', 'asaas-webhook', 'create-asaas-charge', 'admin-create-student', 'admin-reset-password', 'nao-existe');
    const known = fc.record(
      {
        email: fc.oneof(text, fc.emailAddress()),
        name: text,
        company_name: text,
        company_slug: text,
        school_id: fc.oneof(fc.constant(demoSchoolId), fc.uuid().map(String), text),
        course_id: fc.oneof(fc.constant(demoCourseId), fc.uuid().map(String), text),
        cpf: text,
        expires_at: text,
        id: text,
        event: fc.constantFrom('PAYMENT_RECEIVED', 'PAYMENT_CONFIRMED', 'PAYMENT_REFUNDED', 'bogus'),
        payment: fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.record({ id: text, externalReference: text, value: fc.double() })),
        billing_type: text,
        user_id: fc.uuid().map(String),
      },
      { requiredKeys: [] },
    );
    const body = fc.oneof(
      { weight: 3, arbitrary: known.map((k) => JSON.stringify(k)) },
      { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)) },
      { weight: 1, arbitrary: text },
    );
    const secret = fc.option(fc.oneof(text, fc.constant('segredo-errado')), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(fn, body, secret, caller, fc.constantFrom('POST', 'POST', 'POST', 'GET', 'PUT'), async (f, b, s, who, method) => {
        const c = callers()[who]!;
        const headers: Record<string, string> = { ...c.headers, 'Content-Type': 'application/json' };
        if (!headers.Authorization) headers.Authorization = `Bearer ${ANON_KEY}`;
        if (s !== undefined) {
          headers['x-webhook-secret'] = safeHeader(s);
          headers['asaas-access-token'] = safeHeader(s);
        }
        const res = await fetch(`${backend.url}/functions/v1/${f}`, { method, headers, body: method === 'GET' ? undefined : b });
        await expectClean(res, `${c.name} ${method} ${f} ${b.slice(0, 200)}`);
      }),
      runs(150),
    );
  });

  it('changed no protected row', async () => {
    expect(await checksum()).toEqual(before);
  });
});
