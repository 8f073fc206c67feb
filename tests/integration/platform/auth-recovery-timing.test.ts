// Issue 19 item 7: POST /recover must not tell by its timing whether an address has an account. The
// fix answers first and looks the address up afterwards, so:
// 1. deterministically: the answer arrives while the database is held (the lookup and the token write
//    wait behind a lock), for a known address as for an unknown one;
// 2. statistically: with the known address's work made slow on purpose (a 25 ms trigger on the token
//    write, far above a loaded CI machine's noise), many alternating requests for known and unknown
//    addresses still cannot be told apart (AUC near 0.5, with a generous bound). Before the fix the
//    known ones were all slower (AUC ≈ 1).
import { describe, expect, it } from 'vitest';
import { settled } from '../../../local-supabase/auth/background.ts';
import { auc, authFetch, inbox, median, timedClient, uniqueEmail } from '../auth-helpers.ts';
import { useBackend } from '../harness.ts';

const backend = useBackend();

const recover = (email: string) => authFetch(backend.url, '/recover', { method: 'POST', body: { email } });

/** Accounts made straight in SQL (fast): confirmed, with no usable password. */
async function accounts(n: number, prefix: string): Promise<string[]> {
  const emails = Array.from({ length: n }, () => uniqueEmail(prefix));
  for (const email of emails) {
    await backend.server.ctx.engine.query(
      `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
       values ('00000000-0000-0000-0000-000000000000', gen_random_uuid(), 'authenticated', 'authenticated', $1, '', now(), '{}', '{}', now(), now())`,
      [email],
    );
  }
  return emails;
}

const sleep = (ms: number) => new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), ms));

describe('recovery answers before it looks the address up', () => {
  it('answers while the database is held, and mails the link once it is free', { timeout: 60_000 }, async () => {
    const [known] = await accounts(1, 'segura');
    const unknown = uniqueEmail('ninguem');
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let held!: () => void;
    const holding = new Promise<void>((r) => (held = r));
    // Another transaction locks the account (PostgreSQL) / holds the one connection (PGlite).
    const blocker = backend.server.ctx.engine.transaction(async (tx) => {
      await tx.query(`select 1 from auth.users where lower(email) = $1 for update`, [known]);
      held();
      await released;
    });
    await holding;
    try {
      for (const email of [known!, unknown]) {
        const answer = await Promise.race([recover(email), sleep(5_000)]);
        expect(answer, `the answer for ${email === known ? 'a known' : 'an unknown'} address waited for the database`).not.toBe('timeout');
        expect(answer).toMatchObject({ status: 200, body: {} });
      }
    } finally {
      release();
      await blocker;
    }
    // The work went on after the answer: the link is in the known address's inbox, none for the other.
    const mails = await inbox(backend, known!);
    expect(mails.map((m) => m.subject)).toEqual(['Redefinir senha']);
    expect(await inbox(backend, unknown)).toEqual([]);
  });

  it('a known and an unknown address cost the same, even when the known one\'s work is slow', { timeout: 180_000 }, async () => {
    const N = 40;
    const known = await accounts(N, 'tempo-conhecido');
    await backend.server.ctx.engine.exec(`
      create or replace function public.auth_test_slow_recovery() returns trigger language plpgsql as $$
      begin perform pg_sleep(0.025); return new; end $$;
      create trigger auth_test_slow_recovery before update of recovery_token on auth.users
        for each row execute function public.auth_test_slow_recovery();
    `);
    const client = await timedClient(backend.url);
    try {
      const tKnown: number[] = [];
      const tUnknown: number[] = [];
      const measure = async (email: string, into: number[]) => {
        const r = await client.post('/recover', { email });
        expect(r.status).toBe(200);
        into.push(r.ms);
        await settled(backend.server.ctx); // the next request starts on a quiet server
      };
      for (let i = 0; i < N; i++) {
        // Alternate which kind goes first, so a drift over the run hits both alike.
        if (i % 2) {
          await measure(known[i]!, tKnown);
          await measure(uniqueEmail('tempo-desconhecido'), tUnknown);
        } else {
          await measure(uniqueEmail('tempo-desconhecido'), tUnknown);
          await measure(known[i]!, tKnown);
        }
      }
      const a = auc(tKnown, tUnknown);
      const info = `AUC ${a.toFixed(2)}; medians known ${median(tKnown).toFixed(2)} ms, unknown ${median(tUnknown).toFixed(2)} ms`;
      // Indistinguishable: 0.5 ± 0.25 is > 3 standard deviations of the AUC of 40 + 40 equal samples.
      expect(a, info).toBeGreaterThan(0.25);
      expect(a, info).toBeLessThan(0.75);
      // And the medians within 10 ms of each other, where the slow work alone costs 25 ms.
      expect(Math.abs(median(tKnown) - median(tUnknown)), info).toBeLessThan(10);
    } finally {
      client.close();
      await backend.server.ctx.engine.exec('drop trigger auth_test_slow_recovery on auth.users; drop function public.auth_test_slow_recovery();');
    }
    // The known addresses did get their links.
    expect((await inbox(backend, known[0]!)).map((m) => m.subject)).toEqual(['Redefinir senha']);
  });
});
