// The inbox's SMTP listener (local-supabase/mail/smtp-listener.ts): a message sent with nodemailer
// lands in /inbox with its parts and headers; AUTH is required and checked; an oversize message is
// refused; the listener is on loopback only and closes with the server. Then the edge functions'
// transport (supabase/functions/_shared/smtp.ts) under the real functions runtime, with the SMTP_*
// secrets local-supabase gives it: same inbox, and the provider's answer in its errors.
import net from 'node:net';
import os from 'node:os';
import nodemailer from 'nodemailer';
import { describe, expect, it } from 'vitest';
import { LOCAL_SMTP_PASS, LOCAL_SMTP_USER } from '../../../local-supabase/config.ts';
import { MAX_MESSAGE_BYTES } from '../../../local-supabase/mail/smtp-listener.ts';
import { inbox as inboxOf, uniqueEmail } from '../auth-helpers.ts';
import { ANON_KEY, FIXTURE_FUNCTIONS_DIR, startTestBackend, useBackend } from '../harness.ts';

const backend = useBackend({ functionsDir: FIXTURE_FUNCTIONS_DIR });

const transport = (auth: { user: string; pass: string } | null = { user: LOCAL_SMTP_USER, pass: LOCAL_SMTP_PASS }) =>
  nodemailer.createTransport({ host: '127.0.0.1', port: backend.server.smtp.port, secure: false, ...(auth ? { auth } : {}) });

const inbox = (to: string) => inboxOf(backend, to);

/** Resolves with the connect error's code, or 'connected'. */
const tryConnect = (host: string, port: number) =>
  new Promise<string>((resolve) => {
    const socket = net.connect({ host, port });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
  });

describe('SMTP into the local inbox', () => {
  it('delivers a multipart message with its text part, From, Reply-To and List-Unsubscribe', async () => {
    const to = uniqueEmail('aluno');
    const bcc = uniqueEmail('copia');
    const t = transport();
    const info = await t.sendMail({
      from: { name: 'Escola Demo', address: 'nao-responda@escola-demo.com.br' },
      to,
      bcc,
      replyTo: 'contato@escola-demo.com.br',
      subject: 'Acesso liberado — Excel do zero',
      html: '<!doctype html><html><head><title>Acesso</title></head><body style="margin:0;background:#f8fafc"><h2>Olá, João</h2><p><a href="http://localhost:5173/escola-demo?token=abc&amp;x=1">Criar minha senha</a></p></body></html>',
      text: 'Olá, João\n\nCrie sua senha: http://localhost:5173/escola-demo?token=abc&x=1',
      list: { unsubscribe: { url: 'http://localhost:5173/descadastro?t=assinado', comment: 'Descadastrar' } },
      headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click', 'X-Outbox-Id': '42' },
    });
    t.close();

    const [mail, ...others] = await inbox(to);
    expect(others).toEqual([]);
    expect(mail).toMatchObject({
      to,
      subject: 'Acesso liberado — Excel do zero',
      html: expect.stringContaining('<h2>Olá, João</h2>'),
      // The message's own text part, not one derived from the HTML.
      text: 'Olá, João\n\nCrie sua senha: http://localhost:5173/escola-demo?token=abc&x=1',
      from: '"Escola Demo" <nao-responda@escola-demo.com.br>',
      reply_to: 'contato@escola-demo.com.br',
      links: ['http://localhost:5173/escola-demo?token=abc&x=1'],
      headers: {
        'message-id': info.messageId,
        'list-unsubscribe': expect.stringContaining('<http://localhost:5173/descadastro?t=assinado>'),
        'list-unsubscribe-post': 'List-Unsubscribe=One-Click',
        'x-outbox-id': '42',
      },
    });
    // Every envelope recipient gets a copy, Bcc included (the header never names it).
    expect((await inbox(bcc)).map((m) => m.subject)).toEqual(['Acesso liberado — Excel do zero']);

    const page = await (await fetch(`${backend.url}/inbox?to=${encodeURIComponent(to)}`)).text();
    expect(page).toContain('De: &quot;Escola Demo&quot; &lt;nao-responda@escola-demo.com.br&gt;');
    expect(page).toContain('Responder para: contato@escola-demo.com.br');
    expect(page).toContain('<a href="http://localhost:5173/descadastro?t=assinado">');
    // The document's body, in a div with its style: the e-mail cannot restyle the inbox page.
    expect(page).toContain('<div style="margin:0;background:#f8fafc"><h2>Olá, João</h2>');
    expect(page).not.toMatch(/<body style|<title>Acesso/);
  });

  it('keeps a text-only message readable, its URLs as links', async () => {
    const to = uniqueEmail();
    const t = transport();
    await t.sendMail({ from: 'a@localhost', to, subject: 'Só texto', text: 'Veja https://example.com/a?b=1 agora' });
    t.close();
    const [mail] = await inbox(to);
    expect(mail).toMatchObject({ html: '', text: 'Veja https://example.com/a?b=1 agora', links: ['https://example.com/a?b=1'], reply_to: null });
  });

  it('refuses wrong credentials and a sender that does not authenticate', async () => {
    const to = uniqueEmail();
    const wrong = transport({ user: LOCAL_SMTP_USER, pass: 'errada' });
    await expect(wrong.sendMail({ from: 'a@localhost', to, subject: 'x', text: 'x' })).rejects.toMatchObject({ code: 'EAUTH', responseCode: 535 });
    wrong.close();
    const anonymous = transport(null);
    await expect(anonymous.sendMail({ from: 'a@localhost', to, subject: 'x', text: 'x' })).rejects.toMatchObject({ responseCode: 530 });
    anonymous.close();
    expect(await inbox(to)).toEqual([]);
  });

  it('refuses a message over the size limit with 552 and delivers nothing', async () => {
    const to = uniqueEmail();
    const t = transport();
    const big = 'a'.repeat(MAX_MESSAGE_BYTES + 1024);
    await expect(t.sendMail({ from: 'a@localhost', to, subject: 'grande', text: big })).rejects.toMatchObject({ responseCode: 552 });
    t.close();
    expect(await inbox(to)).toEqual([]);
  });

  it('listens on loopback only', async () => {
    const { host, port } = backend.server.smtp;
    expect(host).toBe('127.0.0.1');
    expect(await tryConnect('127.0.0.1', port)).toBe('connected');
    const external = Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && !a.internal && a.family === 'IPv4');
    if (external) expect(await tryConnect(external.address, port)).toBe('ECONNREFUSED');
  });
});

describe('the edge functions’ SMTP transport (supabase/functions/_shared/smtp.ts in Deno)', () => {
  const send = async (body: Record<string, unknown>) => {
    const res = await fetch(`${backend.url}/functions/v1/send-mail`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ANON_KEY}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('is given SMTP_* secrets that point at this server’s listener', { timeout: 120_000 }, async () => {
    expect(await send({ dryRun: true })).toEqual({
      status: 200,
      body: { host: '127.0.0.1', port: backend.server.smtp.port, user: LOCAL_SMTP_USER, sender: 'nao-responda@localhost' },
    });
  });

  it('sends through it into the inbox: sender address with the school’s name, both parts, headers', async () => {
    const to = uniqueEmail('aluna');
    const { status, body } = await send({
      from: { name: 'Escola São Paulo', address: 'nao-responda@localhost' },
      to,
      replyTo: 'secretaria@escola.com.br',
      subject: 'Pagamento confirmado',
      html: '<p>Recebemos seu pagamento. <a href="http://localhost:5173/curso/1">Abrir o curso</a></p>',
      text: 'Recebemos seu pagamento. Abrir o curso: http://localhost:5173/curso/1',
      headers: { 'List-Unsubscribe': '<http://localhost:5173/descadastro?t=x>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(status).toBe(200);
    const [mail] = await inbox(to);
    expect(mail).toMatchObject({
      subject: 'Pagamento confirmado',
      from: '"Escola São Paulo" <nao-responda@localhost>',
      reply_to: 'secretaria@escola.com.br',
      text: 'Recebemos seu pagamento. Abrir o curso: http://localhost:5173/curso/1',
      links: ['http://localhost:5173/curso/1'],
      headers: { 'message-id': body.messageId, 'list-unsubscribe': '<http://localhost:5173/descadastro?t=x>' },
    });
  });

  it('throws with the provider’s answer: a wrong login, a permanent and a temporary refusal', async () => {
    const base = { subject: 'x', html: '<p>x</p>', text: 'x' };
    const wrong = await send({ ...base, to: uniqueEmail(), pass: 'errada' });
    expect(wrong).toMatchObject({ status: 502, body: { code: 'EAUTH', responseCode: 535, response: expect.stringContaining('535') } });
    expect(wrong.body.error).toContain('535');
    const permanent = await send({ ...base, to: 'smtp-fail-550@example.com' });
    expect(permanent.body).toMatchObject({ code: 'EENVELOPE', responseCode: 550, permanent: true });
    const temporary = await send({ ...base, to: 'smtp-fail-451@example.com' });
    expect(temporary.body).toMatchObject({ code: 'EENVELOPE', responseCode: 451, permanent: false });
  });
});

describe('a developer’s own SMTP server', () => {
  it('wins over the local listener, and the listener closes with the server', { timeout: 120_000 }, async () => {
    const own = await startTestBackend({
      functionsDir: FIXTURE_FUNCTIONS_DIR,
      functionSecrets: { SMTP_HOST: 'smtp.example.com', SMTP_PORT: '465', SMTP_USER: 'resend', SMTP_PASS: 're_x', SMTP_SENDER: 'nao-responda@escola.com.br' },
    });
    const { port } = own.server.smtp;
    try {
      const res = await fetch(`${own.url}/functions/v1/send-mail`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${ANON_KEY}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ dryRun: true }),
      });
      expect(await res.json()).toEqual({ host: 'smtp.example.com', port: 465, user: 'resend', sender: 'nao-responda@escola.com.br' });
    } finally {
      await own.stop();
    }
    expect(await tryConnect('127.0.0.1', port)).toBe('ECONNREFUSED');
  });
});
