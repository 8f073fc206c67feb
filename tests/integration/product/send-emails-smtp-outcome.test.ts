// Issue 41, attacks 7 and 2: send-emails judges a failed send by when it happened. Before the message's body
// goes out (server down or mute, login refused) it surely was not delivered: retried, and delivered once when
// the server is back (attack 7: these were failed for good, "resultado desconhecido", and lost). After the body,
// a connection that drops before the server's "250" may have delivered it: never sent again (attack 2: it was
// retried and delivered twice). A refusal after the body is retried with the same Message-ID.
// The fake SMTP server below takes every message into `received`; `mode` says how it misbehaves next.
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ANON_KEY, SERVICE_ROLE_KEY, useBackend } from '../harness.ts';
import { SCHOOL } from '../rls/seed.ts';

const SMTP_PORT = 59203;
type Mode = 'ok' | 'down' | 'mute' | 'auth-refused' | 'drop-after-data' | 'refuse-after-data';
let mode: Mode = 'ok';
const received: { to: string; messageId: string; accepted: boolean }[] = [];
const server = net.createServer((socket) => {
  socket.on('error', () => {});
  if (mode === 'down') return socket.destroy(); // (the listener is closed too, see setMode)
  if (mode === 'mute') return; // accepts the connection, never greets
  let buf = '';
  let inData = false;
  let to = '';
  socket.write('220 fake ESMTP\r\n');
  socket.on('data', (chunk) => {
    buf += chunk.toString('latin1');
    for (;;) {
      if (inData) {
        const end = buf.indexOf('\r\n.\r\n');
        if (end < 0) return;
        const body = buf.slice(0, end);
        buf = buf.slice(end + 5);
        inData = false;
        const messageId = /^Message-ID:\s*(\S+)/im.exec(body)?.[1] ?? '';
        if (mode === 'refuse-after-data') {
          received.push({ to, messageId, accepted: false });
          socket.write('451 4.3.0 try again later\r\n');
          continue;
        }
        received.push({ to, messageId, accepted: true }); // the server has the message
        if (mode === 'drop-after-data') return socket.end(); // ...and the line drops before its "250"
        socket.write('250 2.0.0 queued\r\n');
        continue;
      }
      const nl = buf.indexOf('\r\n');
      if (nl < 0) return;
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 2);
      const cmd = line.slice(0, 4).toUpperCase();
      if (cmd === 'EHLO') socket.write('250-fake\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n');
      else if (cmd === 'AUTH') socket.write(mode === 'auth-refused' ? '535 5.7.8 authentication failed\r\n' : '235 2.7.0 ok\r\n');
      else if (cmd === 'MAIL' || cmd === 'RSET' || cmd === 'NOOP') socket.write('250 ok\r\n');
      else if (cmd === 'RCPT') {
        to = /<([^>]*)>/.exec(line)?.[1] ?? '';
        socket.write('250 ok\r\n');
      } else if (cmd === 'DATA') {
        inData = true;
        socket.write('354 go\r\n');
      } else if (cmd === 'QUIT') {
        socket.end('221 bye\r\n');
        return;
      } else socket.write('502 no\r\n');
    }
  });
});
async function setMode(next: Mode) {
  if (next === 'down' && server.listening) await new Promise((r) => server.close(r));
  if (next !== 'down' && !server.listening) await new Promise<void>((r) => server.listen(SMTP_PORT, '127.0.0.1', r));
  mode = next;
}
beforeAll(() => setMode('ok'));
afterAll(async () => {
  (server as net.Server & { closeAllConnections?: () => void }).closeAllConnections?.();
  if (server.listening) await new Promise((r) => server.close(r));
});
beforeEach(() => setMode('ok'));

const backend = useBackend({
  functionSecrets: {
    SITE_URL: 'http://localhost:5999',
    SMTP_HOST: '127.0.0.1', SMTP_PORT: String(SMTP_PORT), SMTP_USER: 'u', SMTP_PASS: 'p', SMTP_SENDER: 'nao-responda@escola.test',
  },
});
const service = backend.service();
const sql = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await backend.server.ctx.engine.query<T>(text, params)).rows;

async function enqueue(key: string, to: string) {
  const { error } = await service.rpc('enqueue_email', { p_school_id: SCHOOL.demo, p_user_id: null, p_to: to, p_kind: 'new_enrollment', p_key: key, p_payload: { course_title: `Curso ${key}` } });
  if (error) throw error;
}
async function drain() {
  const res = await fetch(`${backend.url}/functions/v1/send-emails`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', apikey: ANON_KEY, Authorization: `Bearer ${SERVICE_ROLE_KEY}` },
    body: '{}',
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, number>;
}
const row = async (key: string) =>
  (await sql<{ status: string; attempts: number; last_error: string | null; provider_message_id: string | null }>(
    'select status, attempts, last_error, provider_message_id from public.email_outbox where idempotency_key = $1', [key]))[0]!;
// Every message due now (a retry's backoff and a lease run out), as the next minutes would make them.
async function later() {
  await sql(`update public.email_outbox set next_attempt_at = now() - interval '1 second' where status = 'queued'`);
  await sql(`update public.email_outbox set locked_until = now() - interval '1 second' where status = 'sending'`);
}
const deliveries = (to: string) => received.filter((m) => m.to === to && m.accepted);

describe('send-emails: what a failed SMTP send means', () => {
  it('control: an unbroken connection delivers the message once and records it sent', async () => {
    await enqueue('smtp:control', 'controle-smtp@example.com');
    expect(await drain()).toMatchObject({ sent: 1 });
    await later();
    await drain();
    expect(deliveries('controle-smtp@example.com')).toHaveLength(1);
    expect(await row('smtp:control')).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it.each([
    ['the server is down (connection refused)', 'down'],
    ['the server never greets', 'mute'],
    ['the server refuses the login', 'auth-refused'],
  ] as const)('%s: the message waits for a retry and is delivered once when the server is back', async (_, failure) => {
    const to = `volta-${failure}@example.com`;
    await enqueue(`smtp:${failure}`, to);
    await setMode(failure);
    expect(await drain()).toMatchObject({ claimed: 1, sent: 0, retried: 1, failed: 0 });
    expect(await row(`smtp:${failure}`)).toMatchObject({ status: 'queued', attempts: 1 });
    expect(deliveries(to)).toHaveLength(0);

    await setMode('ok');
    await later();
    expect(await drain()).toMatchObject({ sent: 1 });
    await later();
    await drain();
    expect(deliveries(to)).toHaveLength(1);
    expect(await row(`smtp:${failure}`)).toMatchObject({ status: 'sent', attempts: 2 });
  }, 60_000);

  it('the connection drops after the message was handed over, before the "250": one delivery, never sent again, shown as unknown', async () => {
    const to = 'queda-depois-do-data@example.com';
    await enqueue('smtp:drop', to);
    await setMode('drop-after-data');
    expect(await drain()).toMatchObject({ claimed: 1, sent: 0, retried: 0, failed: 1 });
    await setMode('ok');
    for (let i = 0; i < 2; i++) {
      await later();
      await drain();
    }
    expect(deliveries(to)).toHaveLength(1);
    const lost = await row('smtp:drop');
    expect(lost).toMatchObject({ status: 'failed', attempts: 1, provider_message_id: deliveries(to)[0]!.messageId });
    expect(lost.last_error).toMatch(/^Resultado do envio desconhecido/);
  });

  it('a refusal after the message (451) is retried with the same Message-ID and then delivered once', async () => {
    const to = 'recusa-451@example.com';
    await enqueue('smtp:451', to);
    await setMode('refuse-after-data');
    expect(await drain()).toMatchObject({ retried: 1 });
    expect(await row('smtp:451')).toMatchObject({ status: 'queued' });
    await setMode('ok');
    await later();
    expect(await drain()).toMatchObject({ sent: 1 });
    const seen = received.filter((m) => m.to === to);
    expect(seen.map((m) => m.accepted)).toEqual([false, true]);
    expect(seen[1]!.messageId).toBe(seen[0]!.messageId);
    expect((await row('smtp:451')).provider_message_id).toBe(seen[0]!.messageId);
  });
});
