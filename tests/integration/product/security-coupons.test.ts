// Issue 37, what an attacker got through with coupons, in real Deno against the fake Asaas:
//  6. One buyer used up a limited coupon without paying (two unpaid PIX charges took a 2-use coupon). A buyer
//     holds one pending reservation per coupon, whatever the course: a new charge replaces their older pending
//     ones (removed at Asaas); a reservation ends with its charge's due date; a paid charge keeps its use.
//  7. Coupon codes could be guessed without limit. Past 10 unknown codes a minute per account, or 30 per school
//     and address, every look-up of a code (checkout_quote, create-asaas-charge) answers 429 with a pt-BR
//     message; a read-only transaction (PostgREST's GET and HEAD) is refused before any look-up.
//  8. Inactive, expired and not-yet-valid codes each had their own message. They answer exactly as an
//     unknown code, on the quote and on the charge.
// Requests of the guessing tests come from their own loopback addresses (127.0.0.x), so each test has the
// per-address budget of a different client, as the API gateway sees it.
import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { ANON_KEY, useBackend } from '../harness.ts';
import { COURSE, EMAIL, SCHOOL } from '../rls/seed.ts';

const CUSTOMER = { name: 'Comprador Teste', email: 'comprador@exemplo.com.br', cpfCnpj: '529.982.247-25', phone: '(11) 98888-7777' };
const PASSWORD = 'senha-cupom-123';
const LIMITED = 'Muitas tentativas de cupom. Aguarde um minuto e tente de novo.';

const backend = useBackend({
  fakeAsaas: { eventDelayMs: 20 },
  functionSecrets: { SITE_URL: 'http://localhost:5999' },
});
const fake = backend.asaas;
const service = backend.service();

const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;
const tag = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`.toUpperCase();

/** fetch over a connection from `localAddress` (a loopback address of this machine), optionally with extra headers. */
function fetchFrom(localAddress: string, extraHeaders: Record<string, string> = {}): typeof fetch {
  return async (input, init) => {
    const req = new Request(input, init);
    const url = new URL(req.url);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const out = httpRequest(
        { host: '127.0.0.1', port: url.port, path: url.pathname + url.search, method: req.method, headers: { ...Object.fromEntries(req.headers), ...extraHeaders }, localAddress },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('error', reject);
          res.on('end', () => {
            const headers = new Headers();
            for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
            resolve(new Response(res.statusCode === 204 ? null : Buffer.concat(chunks), { status: res.statusCode, headers }));
          });
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  };
}

interface Buyer {
  id: string;
  token: string;
  /** supabase-js signed in as the buyer, connecting from `address`. */
  client: SupabaseClient;
  address: string;
}

/** A new student of the demo school (or `school`), whose requests come from `address`. */
async function buyer(address = '127.0.0.1', school: string = SCHOOL.demo): Promise<Buyer> {
  const email = `cupom.${tag().toLowerCase()}@exemplo.com.br`;
  const created = await service.auth.admin.createUser({ email, password: PASSWORD, email_confirm: true, user_metadata: { name: 'Comprador', school_id: school } });
  if (created.error) throw created.error;
  const session = (await (await backend.signIn(email, PASSWORD)).auth.getSession()).data.session!;
  return { id: created.data.user!.id, token: session.access_token, client: clientFrom(address, session.access_token), address };
}

function clientFrom(address: string, token: string, extraHeaders: Record<string, string> = {}): SupabaseClient {
  return createClient(backend.url, ANON_KEY, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { fetch: fetchFrom(address, extraHeaders), headers: { Authorization: `Bearer ${token}` } },
  });
}

async function coupon(values: Record<string, unknown> = {}) {
  const code = `CUPOM${tag()}`;
  const { data, error } = await service.from('coupons').insert({ school_id: SCHOOL.demo, code, kind: 'percent', amount: 20, ...values }).select('id, code').single();
  if (error) throw error;
  return data as { id: string; code: string };
}

/** create-asaas-charge as the buyer (PIX unless said), from the buyer's address. */
async function charge(b: Buyer, body: Record<string, unknown>) {
  const res = await fetchFrom(b.address)(`${backend.url}/functions/v1/create-asaas-charge`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${b.token}`, apikey: ANON_KEY },
    body: JSON.stringify({ billing_type: 'PIX', customer: CUSTOMER, course_id: COURSE.marketing, ...body }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** checkout_quote as the buyer: HTTP status and PostgREST's answer. */
async function quote(b: Buyer | SupabaseClient, code: string | null, course: string = COURSE.marketing) {
  const client = 'client' in b ? b.client : b;
  const r = await client.rpc('checkout_quote', { p_course_id: course, p_coupon_code: code, p_with_bump: false });
  return { status: r.status, data: r.data as { coupon_error: string | null; discount: number; total: number } | null, error: r.error };
}

const uses = async (couponId: string) =>
  (await sql<{ status: string }>('select status from public.coupon_uses where coupon_id = $1 order by created_at', [couponId])).map((u) => u.status);
const payment = async (id: string) =>
  (await sql<{ status: string; replaced_by: string | null; provider_payment_id: string; due_date: string }>(
    `select status, replaced_by, provider_payment_id, to_char(due_date, 'YYYY-MM-DD') as due_date from public.payments where id = $1`,
    [id],
  ))[0]!;
/** São Paulo's date `days` from today. */
const brazilDate = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(Date.now() + days * 86_400_000));
const expire = (paymentId: string) => sql(`update public.payments set due_date = $2 where id = $1`, [paymentId, brazilDate(-1)]);

describe('hole 6: a buyer holds one pending reservation per coupon, whatever the course, until the charge is due', () => {
  it('one account, two unpaid PIX charges with a 2-use coupon: one use reserved; the first charge is replaced and removed at Asaas; a second buyer still gets the other use', async () => {
    const c = await coupon({ max_uses: 2 });
    const attacker = await buyer();
    const first = await charge(attacker, { coupon_code: c.code });
    const second = await charge(attacker, { coupon_code: c.code });
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await uses(c.id)).toEqual(['released', 'reserved']);
    // The first charge was replaced by the second, and can no longer be paid at Asaas.
    const old = await payment(String(first.body.payment_id));
    expect(old).toMatchObject({ status: 'DELETED', replaced_by: second.body.payment_id });
    expect(fake.payment(old.provider_payment_id)).toMatchObject({ deleted: true });
    expect(fake.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toContain(`/api/v3/payments/${old.provider_payment_id}`);
    expect(await payment(String(second.body.payment_id))).toMatchObject({ status: 'PENDING', replaced_by: null, due_date: brazilDate(1) });
    // Asaas's PAYMENT_DELETED arrives afterwards and changes nothing more.
    await fake.idle();
    expect(await uses(c.id)).toEqual(['released', 'reserved']);

    // Everyone else: the remaining use is there.
    const other = await buyer();
    expect((await quote(other, c.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
    expect((await charge(other, { coupon_code: c.code, value: 237.6 })).status).toBe(200);
    expect(await uses(c.id)).toEqual(['released', 'reserved', 'reserved']);
    expect((await quote(await buyer(), c.code)).data?.coupon_error).toBe('Este cupom esgotou.');
    // Staff see two reservations.
    const [row] = await sql<{ reserved: string }>(`select count(*)::text as reserved from public.coupon_uses where coupon_id = $1 and status = 'reserved'`, [c.id]);
    expect(row!.reserved).toBe('2');
  });

  // Issue 37's retest: one reservation per coupon and COURSE let one account hold a use for each course of the school.
  it('one account, unpaid PIX charges for two courses with a 2-use coupon: one use reserved, the older charge replaced and removed at Asaas; another buyer still gets a use', async () => {
    const c = await coupon({ max_uses: 2 });
    const attacker = await buyer();
    const marketing = await charge(attacker, { coupon_code: c.code });
    const excel = await charge(attacker, { course_id: COURSE.excel, coupon_code: c.code });
    expect([marketing.status, excel.status]).toEqual([200, 200]);
    expect(await uses(c.id)).toEqual(['released', 'reserved']);
    const old = await payment(String(marketing.body.payment_id));
    expect(old).toMatchObject({ status: 'DELETED', replaced_by: excel.body.payment_id });
    expect(fake.payment(old.provider_payment_id)).toMatchObject({ deleted: true });
    expect(await payment(String(excel.body.payment_id))).toMatchObject({ status: 'PENDING', replaced_by: null });
    await fake.idle();
    expect(await uses(c.id)).toEqual(['released', 'reserved']);
    // Everyone else still finds a use, on either course.
    const other = await buyer();
    expect((await quote(other, c.code, COURSE.excel)).data?.coupon_error).toBeNull();
    expect((await quote(other, c.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
  });

  it('a paid use is never replaced: a buyer allowed two uses pays one course, then takes the other with the coupon (control)', async () => {
    const c = await coupon({ max_uses_per_buyer: 2 });
    const b = await buyer();
    const paid = await charge(b, { coupon_code: c.code });
    await fetch(`${fake.url}/i/${String(paid.body.invoiceUrl).split('/i/')[1]}/pay`, { method: 'POST', redirect: 'manual' });
    expect(await uses(c.id)).toEqual(['used']);
    const second = await charge(b, { course_id: COURSE.excel, coupon_code: c.code });
    expect(second.status).toBe(200);
    expect(await uses(c.id)).toEqual(['used', 'reserved']);
    expect(await payment(String(paid.body.payment_id))).toMatchObject({ replaced_by: null });
    expect(['RECEIVED', 'CONFIRMED']).toContain((await payment(String(paid.body.payment_id))).status);
  });

  it('the limit per buyer still holds: a paid use counts, on another course too', async () => {
    const c = await coupon({ max_uses_per_buyer: 1 });
    const b = await buyer();
    const paid = await charge(b, { coupon_code: c.code });
    await fetch(`${fake.url}/i/${String(paid.body.invoiceUrl).split('/i/')[1]}/pay`, { method: 'POST', redirect: 'manual' });
    expect(await uses(c.id)).toEqual(['used']);
    const again = await charge(b, { course_id: COURSE.excel, coupon_code: c.code });
    expect(again).toMatchObject({ status: 400, body: { error: 'Você já usou este cupom o máximo de vezes permitido.' } });
    expect(await uses(c.id)).toEqual(['used']);
  });

  it('a pending charge past its due date frees its use; a paid one keeps it, even paid late', async () => {
    const c = await coupon({ max_uses: 1 });
    const first = await buyer();
    const pending = await charge(first, { coupon_code: c.code });
    const waiting = await buyer();
    expect((await quote(waiting, c.code)).data?.coupon_error).toBe('Este cupom esgotou.');
    // The PIX was not paid by its due date: its reservation ends with it.
    await expire(String(pending.body.payment_id));
    expect((await quote(waiting, c.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
    const staffView = async () =>
      (await (await backend.signIn(EMAIL.adminDemo)).rpc('admin_coupons', { p_school_id: SCHOOL.demo })).data as { id: string; uses: number; reserved: number }[];
    expect((await staffView()).find((x) => x.id === c.id)).toMatchObject({ uses: 0, reserved: 0 });
    const taken = await charge(waiting, { coupon_code: c.code });
    expect(taken.status).toBe(200);
    expect((await staffView()).find((x) => x.id === c.id)).toMatchObject({ uses: 0, reserved: 1 });

    // The late PIX is paid after all (Asaas still takes it): that use counts too, the discount was given.
    await fetch(`${fake.url}/i/${String(pending.body.invoiceUrl).split('/i/')[1]}/pay`, { method: 'POST', redirect: 'manual' });
    expect(await uses(c.id)).toEqual(['used', 'reserved']);
    // A paid charge past its due date keeps its use.
    await fetch(`${fake.url}/i/${String(taken.body.invoiceUrl).split('/i/')[1]}/pay`, { method: 'POST', redirect: 'manual' });
    await expire(String(taken.body.payment_id));
    expect(await uses(c.id)).toEqual(['used', 'used']);
    expect((await quote(await buyer(), c.code)).data?.coupon_error).toBe('Este cupom esgotou.');
  });
});

describe('hole 7: guessing coupon codes is limited per account and per address', () => {
  it('10 unknown codes a minute per account: then every look-up of a code answers 429 in pt-BR, from any address; a minute later it answers again', async () => {
    const valid = await coupon();
    const a = await buyer('127.0.0.2');
    for (let i = 0; i < 10; i++) {
      expect((await quote(a, `CHUTE${i}${tag()}`)).data?.coupon_error, `guess ${i}`).toBe('Cupom não encontrado.');
    }
    const limited = await quote(a, valid.code);
    expect(limited.status).toBe(429);
    // What the checkout page turns into the price without the code and this message under the field
    // (src/features/checkout/api/queries.test.ts).
    expect(limited.error).toEqual({ code: 'PT429', message: LIMITED, details: null, hint: null });
    // The same account from another address.
    expect((await quote(clientFrom('127.0.0.3', a.token), valid.code)).status).toBe(429);
    // The price without a code is not limited.
    expect((await quote(a, null)).data).toMatchObject({ coupon_error: null, total: 297 });
    // What the database keeps: one row per unknown code, for the account and for the address.
    const kept = await sql<{ subject: string; n: number }>(
      `select subject, count(*)::int as n from private.coupon_code_misses where subject in ($1, $2) group by subject order by subject`,
      [`user:${a.id}`, `ip:${SCHOOL.demo}:127.0.0.2`],
    );
    expect(kept).toEqual([
      { subject: `ip:${SCHOOL.demo}:127.0.0.2`, n: 10 },
      { subject: `user:${a.id}`, n: 10 },
    ]);
    // A minute later the account may try again.
    await sql(`update private.coupon_code_misses set missed_at = missed_at - interval '61 seconds' where subject in ($1, $2)`, [`user:${a.id}`, `ip:${SCHOOL.demo}:127.0.0.2`]);
    expect((await quote(a, valid.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
    // Control: another account elsewhere was never limited.
    expect((await quote(await buyer('127.0.0.4'), valid.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
  });

  // Issue 37's retest: the address budget was the same as the account's (10) and shared by every school, so
  // one account of any school locked everyone behind that address (a school's lab, an office, a carrier's NAT)
  // out of the real code for a minute, renewable.
  it('30 unknown codes a minute per school and address, over several accounts of the school; a made-up X-Forwarded-For or CF-Connecting-IP is not another address', async () => {
    const valid = await coupon();
    const accounts = await Promise.all([buyer('127.0.0.5'), buyer('127.0.0.5'), buyer('127.0.0.5'), buyer('127.0.0.5')]);
    for (const [n, b] of accounts.slice(0, 3).entries()) {
      for (let i = 0; i < 10; i++) expect((await quote(b, `END${n}${i}${tag()}`)).data?.coupon_error, `account ${n}, guess ${i}`).toBe('Cupom não encontrado.');
    }
    const fourth = accounts[3]!;
    expect((await quote(fourth, valid.code)).status).toBe(429);
    expect((await quote(clientFrom('127.0.0.5', fourth.token, { 'X-Forwarded-For': '203.0.113.9' }), valid.code)).status).toBe(429);
    expect((await quote(clientFrom('127.0.0.5', fourth.token, { 'CF-Connecting-IP': '203.0.113.9' }), valid.code)).status).toBe(429);
    // Control: the same account from its own address.
    expect((await quote(clientFrom('127.0.0.6', fourth.token), valid.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
  });

  it("another school's student who burns 10 codes from an address does not lock this school's buyers there out of the real code", async () => {
    const valid = await coupon();
    const rival = await buyer('127.0.0.12', SCHOOL.rival);
    for (let i = 0; i < 10; i++) expect((await quote(rival, `RIVAL${i}${tag()}`, COURSE.rival)).data?.coupon_error, `guess ${i}`).toBe('Cupom não encontrado.');
    // The rival account itself is limited.
    expect((await quote(rival, `RIVAL${tag()}`, COURSE.rival)).status).toBe(429);
    const victim = await buyer('127.0.0.12');
    expect((await quote(victim, valid.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
    expect(await sql(`select subject, count(*)::int as n from private.coupon_code_misses where subject like 'ip:%:127.0.0.12' group by subject`)).toEqual([
      { subject: `ip:${SCHOOL.rival}:127.0.0.12`, n: 10 },
    ]);
  });

  it('a burst of 30 parallel guesses from one account: 10 answered, 20 refused with 429', async () => {
    const a = await buyer('127.0.0.7');
    const results = await Promise.all(Array.from({ length: 30 }, (_, i) => quote(a, `RAJADA${i}${tag()}`)));
    expect(results.filter((r) => r.status === 200 && r.data?.coupon_error === 'Cupom não encontrado.')).toHaveLength(10);
    expect(results.filter((r) => r.status === 429 && r.error?.message === LIMITED)).toHaveLength(20);
    expect(await sql(`select count(*)::int as n from private.coupon_code_misses where subject = $1`, [`user:${a.id}`])).toEqual([{ n: 10 }]);
  });

  // Issue 37's retest: PostgREST runs GET (and HEAD) /rpc/* in a READ ONLY transaction, where the miss of an
  // unknown code could not be written (25006) while a known code answered its discount: a guess oracle without limit.
  it('GET and HEAD /rpc/checkout_quote answer one refusal for a known and an unknown code, and count nothing; POST answers (control)', async () => {
    const valid = await coupon();
    const a = await buyer('127.0.0.13');
    const args = (code: string) => ({ p_course_id: COURSE.marketing, p_coupon_code: code, p_with_bump: false });
    const shape = (r: { status: number; data: unknown; error: unknown }) => ({ status: r.status, data: r.data, error: r.error });
    const known = shape(await a.client.rpc('checkout_quote', args(valid.code), { get: true }));
    expect(known).toEqual({
      status: 405,
      data: null,
      error: { code: '25006', message: 'A consulta de cupom só é feita por POST.', details: null, hint: null },
    });
    expect(shape(await a.client.rpc('checkout_quote', args(`NAOEXISTE${tag()}`), { get: true }))).toEqual(known);
    const head = await a.client.rpc('checkout_quote', args(valid.code), { head: true });
    expect(head.status).toBe(405);
    expect((await a.client.rpc('checkout_quote', args(`NAOEXISTE${tag()}`), { head: true })).status).toBe(405);
    // The hosted platform's transaction, replayed in SQL (PostgREST: begin read only): the same refusal.
    for (const code of [valid.code, `NAOEXISTE${tag()}`]) {
      const refused = await backend.server.ctx.engine
        .transaction((tx) => tx.query('select public.checkout_quote($1, $2)', [COURSE.marketing, code]), {
          role: 'authenticated',
          'request.jwt.claims': JSON.stringify({ sub: a.id, role: 'authenticated', aal: 'aal1' }),
          'request.headers': JSON.stringify({ 'x-forwarded-for': '203.0.113.7' }),
          transaction_read_only: 'on',
        })
        .then(() => null, (e: { code?: string; message?: string }) => ({ code: e.code, message: e.message }));
      expect(refused, code).toEqual({ code: '25006', message: 'A consulta de cupom só é feita por POST.' });
    }
    expect(await sql(`select count(*)::int as n from private.coupon_code_misses where subject = $1`, [`user:${a.id}`])).toEqual([{ n: 0 }]);
    expect((await quote(a, valid.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
    expect((await quote(a, `NAOEXISTE${tag()}`)).data?.coupon_error).toBe('Cupom não encontrado.');
  });

  it('create-asaas-charge counts its codes too: past 10 unknown codes it answers 429 and creates nothing; the quote is limited with it', async () => {
    const valid = await coupon();
    const a = await buyer('127.0.0.8');
    for (let i = 0; i < 10; i++) {
      expect(await charge(a, { coupon_code: `COBRA${i}${tag()}` }), `guess ${i}`).toMatchObject({ status: 400, body: { error: 'Cupom não encontrado.' } });
    }
    expect(await charge(a, { coupon_code: valid.code })).toMatchObject({ status: 429, body: { error: LIMITED, field: 'coupon_code' } });
    expect((await quote(a, valid.code)).status).toBe(429);
    expect(await sql('select id from public.payments where user_id = $1', [a.id])).toEqual([]);
    // Control: a buyer elsewhere buys with the code.
    const b = await buyer('127.0.0.9');
    expect((await charge(b, { coupon_code: valid.code, value: 237.6 })).status).toBe(200);
  });

  it('an address is budgeted as one client holds it: an IPv4 address, an IPv6 /64', async () => {
    const keys = await sql<{ k: string | null }>(
      `select private.address_key(a) as k from unnest(array['203.0.113.9', ' 203.0.113.9 ', '::ffff:203.0.113.9', '2001:db8:1:2::7', '2001:db8:1:2:ffff::1', '2001:db8:1:3::7', 'x', '', null]) with ordinality t (a, n) order by n`,
    );
    expect(keys.map((r) => r.k)).toEqual(['203.0.113.9', '203.0.113.9', '203.0.113.9', '2001:db8:1:2::/64', '2001:db8:1:2::/64', '2001:db8:1:3::/64', 'x', null, null]);
  });

  it("the client's address is CF-Connecting-IP first (Cloudflare sets it on the platform, over a client's), then the last X-Forwarded-For (the nearest proxy's; the first ones are the client's own)", async () => {
    const requestIp = (headers: Record<string, string> | null) =>
      backend.server.ctx.engine.transaction(async (tx) => (await tx.query<{ ip: string | null }>('select private.request_ip() as ip')).rows[0]!.ip, {
        'request.headers': headers ? JSON.stringify(headers) : '',
      });
    expect(await requestIp({ 'cf-connecting-ip': '198.51.100.7', 'x-forwarded-for': '203.0.113.9, 198.51.100.7' })).toBe('198.51.100.7');
    expect(await requestIp({ 'x-forwarded-for': ' 203.0.113.9 , 10.0.0.1' })).toBe('10.0.0.1');
    expect(await requestIp({ 'cf-connecting-ip': ' ', 'x-forwarded-for': '203.0.113.9' })).toBe('203.0.113.9');
    expect(await requestIp({})).toBeNull();
    expect(await requestIp(null)).toBeNull();
  });

  it('the misses are private: no API role reads or writes them', async () => {
    for (const role of ['anon', 'authenticated', 'service_role']) {
      expect(await sql(`select has_table_privilege($1, 'private.coupon_code_misses', 'select,insert,update,delete') as ok`, [role]), role).toEqual([{ ok: false }]);
    }
  });
});

describe('hole 8: a code the school has not published answers as an unknown one', () => {
  it('an inactive, an expired and a not-yet-valid code: the same quote and the same charge refusal as an unknown code, each counted as a miss', async () => {
    const hidden = [
      await coupon({ is_active: false }),
      await coupon({ valid_from: '2026-01-01T00:00:00Z', valid_until: '2026-02-01T00:00:00Z' }),
      await coupon({ valid_from: '2999-01-01T00:00:00Z' }),
    ];
    const a = await buyer('127.0.0.10');
    const unknownQuote = await quote(a, `NAOEXISTE${tag()}`);
    const unknownCharge = await charge(a, { coupon_code: `NAOEXISTE${tag()}` });
    expect(unknownQuote).toMatchObject({ status: 200, data: { coupon_error: 'Cupom não encontrado.', discount: 0, total: 297 } });
    expect(unknownCharge).toMatchObject({ status: 400, body: { error: 'Cupom não encontrado.' } });
    for (const c of hidden) {
      expect(await quote(a, c.code), c.code).toEqual(unknownQuote);
      expect(await charge(a, { coupon_code: c.code }), c.code).toEqual(unknownCharge);
    }
    // Five different codes, each one miss (its quote and its charge alike).
    expect(await sql(`select count(*)::int as n from private.coupon_code_misses where subject = $1`, [`user:${a.id}`])).toEqual([{ n: 5 }]);
    expect(await sql('select id from public.payments where user_id = $1', [a.id])).toEqual([]);
  });

  it('a published code keeps its reasons: it applies; for another course it says so; used up it says so', async () => {
    const a = await buyer('127.0.0.11');
    const open = await coupon();
    const excelOnly = await coupon({ all_courses: false });
    await sql('insert into public.coupon_courses (coupon_id, course_id) values ($1, $2)', [excelOnly.id, COURSE.excel]);
    const soldOut = await coupon({ max_uses: 1 });
    expect((await charge(await buyer(), { coupon_code: soldOut.code })).status).toBe(200);
    expect((await quote(a, open.code)).data).toMatchObject({ coupon_error: null, total: 237.6 });
    expect((await quote(a, excelOnly.code)).data?.coupon_error).toBe('Este cupom não vale para este curso.');
    expect((await quote(a, soldOut.code)).data?.coupon_error).toBe('Este cupom esgotou.');
    expect(await sql(`select count(*)::int as n from private.coupon_code_misses where subject = $1`, [`user:${a.id}`])).toEqual([{ n: 0 }]);
  });
});
