// `deno test` (npm test runs it; npm run test:functions alone): which SMTP_* secrets make a
// configuration, and how the transport connects. Sending itself is covered end to end, through
// local-supabase's inbox, by tests/integration/platform/smtp-inbox.test.ts.
import assert from 'node:assert/strict';
import { smtpConfigFromEnv, transportOptions, type SmtpConfig } from './smtp.ts';

const secrets = (values: Record<string, string>) => (name: string) => values[name];
const complete = { SMTP_HOST: 'smtp.resend.com', SMTP_PORT: '465', SMTP_USER: 'resend', SMTP_PASS: 're_123', SMTP_SENDER: 'nao-responda@escola.com.br' };

Deno.test('no SMTP_* secret: e-mail is not configured (null)', () => {
  assert.equal(smtpConfigFromEnv(secrets({})), null);
  assert.equal(smtpConfigFromEnv(secrets({ SMTP_HOST: ' ' })), null);
});

Deno.test('all five secrets: the configuration', () => {
  assert.deepEqual(smtpConfigFromEnv(secrets(complete)), {
    host: 'smtp.resend.com',
    port: 465,
    user: 'resend',
    pass: 're_123',
    sender: 'nao-responda@escola.com.br',
  });
});

Deno.test('some secrets missing: an error naming them', () => {
  assert.throws(() => smtpConfigFromEnv(secrets({ ...complete, SMTP_PASS: '', SMTP_SENDER: '' })), /SMTP_PASS, SMTP_SENDER/);
});

Deno.test('ports 25 and 587 are refused: hosted Edge Functions cannot reach them', () => {
  for (const port of ['25', '587']) assert.throws(() => smtpConfigFromEnv(secrets({ ...complete, SMTP_PORT: port })), /bloqueada/);
  assert.throws(() => smtpConfigFromEnv(secrets({ ...complete, SMTP_PORT: 'abc' })), /SMTP_PORT inválida/);
});

Deno.test('SMTP_SENDER is an address, not "Name <address>"', () => {
  assert.throws(() => smtpConfigFromEnv(secrets({ ...complete, SMTP_SENDER: 'Escola <a@b.com>' })), /SMTP_SENDER/);
});

Deno.test('TLS: implicit on 465/2465, STARTTLS required elsewhere, plain only to loopback', () => {
  const config = (host: string, port: number): SmtpConfig => ({ host, port, user: 'u', pass: 'p', sender: 'a@b.com' });
  assert.deepEqual(pick(transportOptions(config('smtp.resend.com', 465))), { secure: true, requireTLS: false });
  assert.deepEqual(pick(transportOptions(config('email-smtp.sa-east-1.amazonaws.com', 2465))), { secure: true, requireTLS: false });
  assert.deepEqual(pick(transportOptions(config('smtp-relay.brevo.com', 2525))), { secure: false, requireTLS: true });
  assert.deepEqual(pick(transportOptions(config('127.0.0.1', 54325))), { secure: false, requireTLS: false });
  assert.deepEqual(transportOptions(config('127.0.0.1', 54325)).auth, { user: 'u', pass: 'p' });
});

function pick(o: { secure?: boolean; requireTLS?: boolean }) {
  return { secure: o.secure, requireTLS: o.requireTLS };
}
