// Sending e-mail with real SMTP through any provider (Resend, Amazon SES, Brevo…), configured by the
// SMTP_* function secrets. Locally, local-supabase sets them to its own inbox's SMTP listener, so
// the same code runs end to end and the messages appear at /inbox.
//
// Ports: Supabase's hosted Edge Functions do not allow outgoing connections to ports 25 and 587
// (supabase.com/docs/guides/functions/limits; 465 was listed too until the docs were corrected, it
// works: supabase/supabase#21977), so smtpConfigFromEnv refuses 25 and 587. Use 465 (or 2465:
// implicit TLS) or a provider's STARTTLS port such as 2587 (SES, Resend) or 2525 (Brevo).
import { Readable } from 'node:stream';
import type { NodemailerError, SMTPTransportOptions } from 'npm:nodemailer@10.6.1';
import MailComposer from 'npm:nodemailer@10.6.1/lib/mail-composer';
import SMTPConnection from 'npm:nodemailer@10.6.1/lib/smtp-connection';

export interface SmtpConfig {
  host: string;
  port: number;
  user: string;
  pass: string;
  /** The From address (SMTP_SENDER); a message adds its display name (the school's). */
  sender: string;
}

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  /** The plain-text part; every message should have one. */
  text?: string;
  /** Default: config.sender. A `{ name, address }` keeps the provider's verified address with any name. */
  from?: string | { name: string; address: string };
  replyTo?: string;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post. */
  headers?: Record<string, string>;
  /** The Message-ID (`<id@domain>`), when the caller records it before sending (send-emails). */
  messageId?: string;
}

const BLOCKED_PORTS = new Set([25, 587]);
/** Ports where providers speak TLS from the first byte (SMTPS); the others upgrade with STARTTLS. */
const IMPLICIT_TLS_PORTS = new Set([465, 2465]);
const NAMES = ['SMTP_HOST', 'SMTP_PORT', 'SMTP_USER', 'SMTP_PASS', 'SMTP_SENDER'] as const;

/** The SMTP_* secrets; null when none is set (e-mail not configured); an Error when some are missing or wrong. */
export function smtpConfigFromEnv(get: (name: string) => string | undefined = (n) => Deno.env.get(n)): SmtpConfig | null {
  const values = NAMES.map((n) => get(n)?.trim() ?? '');
  if (values.every((v) => !v)) return null;
  const missing = NAMES.filter((_, i) => !values[i]);
  if (missing.length) throw new Error(`SMTP incompleto: defina ${missing.join(', ')}`);
  const [host, rawPort, user, pass, sender] = values as [string, string, string, string, string];
  const port = Number(rawPort);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`SMTP_PORT inválida: "${rawPort}"`);
  if (BLOCKED_PORTS.has(port)) {
    throw new Error(`SMTP_PORT ${port} é bloqueada nas Edge Functions do Supabase: use 465 (TLS) ou a porta alternativa do provedor (ex.: 2587, 2525)`);
  }
  if (!/^[^\s@<>]+@[^\s@<>]+$/.test(sender)) throw new Error(`SMTP_SENDER deve ser só o endereço (ex.: nao-responda@escola.com.br): "${sender}"`);
  return { host, port, user, pass, sender };
}

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || /^127\./.test(host);

/** Nodemailer's options for `config`: TLS always, except to a loopback server (local-supabase's inbox). */
export function transportOptions(config: SmtpConfig): SMTPTransportOptions {
  const secure = IMPLICIT_TLS_PORTS.has(config.port);
  return {
    host: config.host,
    port: config.port,
    secure,
    // Never send the password in clear text to a remote server: no STARTTLS there is an error.
    requireTLS: !secure && !isLoopback(config.host),
    auth: { user: config.user, pass: config.pass },
    // Well inside a function's 150 s request limit, so a dead provider fails the message, not the batch.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

/** A send that failed, with what the provider answered (`response`, e.g. "535 Authentication failed"). */
export class SmtpError extends Error {
  constructor(
    message: string,
    /** Nodemailer's code: EAUTH, EENVELOPE, EMESSAGE, ECONNECTION, ETIMEDOUT, ESOCKET… */
    readonly code: string | null,
    readonly responseCode: number | null,
    readonly response: string | null,
    /** A 5xx the provider will answer again (bad address, rejected content): retrying does not help. */
    readonly permanent: boolean,
    /** The message's body had started to go out (the server answered DATA): the server may have it. */
    readonly bodySent = false,
  ) {
    super(message);
    this.name = 'SmtpError';
  }
}

function toSmtpError(e: unknown, bodySent: boolean, permanent?: boolean): SmtpError {
  const err = e as NodemailerError;
  const response = err.response ?? null;
  const message = response ? `SMTP: ${response}` : `SMTP: ${err.message ?? String(e)}`;
  return new SmtpError(message, err.code ?? null, err.responseCode ?? null, response, permanent ?? err.permanent === true, bodySent);
}

/**
 * One SMTP session for many messages, as a sender draining a batch wants. ready() connects and logs in
 * (again after a failure ended the last session) before the caller records anything about a message, so
 * a server that is down, mute or refuses the login fails there, before a message is at stake (send-emails'
 * at-most-once rule, docs/emails.md). send()'s error says whether the body had started to go out
 * (SmtpError.bodySent); after a failed send the session is ended and the next ready() opens a new one.
 */
export interface SmtpSession {
  ready(): Promise<void>;
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

export function openSmtpSession(config: SmtpConfig): SmtpSession {
  let connection: SMTPConnection | null = null;
  const end = () => {
    connection?.close();
    connection = null;
  };
  return {
    async ready() {
      if (connection) return;
      const opened = new SMTPConnection(transportOptions(config));
      try {
        await new Promise<void>((resolve, reject) => {
          // A refused or dropped connection is emitted as 'error', a refused greeting reaches the callback.
          opened.once('error', reject);
          opened.connect((err) => (err ? reject(err) : opened.login({ user: config.user, pass: config.pass }, (e) => (e ? reject(e) : resolve()))));
        });
      } catch (e) {
        opened.close();
        // The server's fault, not the message's: never a permanent failure of the message.
        throw toSmtpError(e, false, false);
      }
      opened.on('error', () => {}); // later errors reach send()'s callback
      opened.once('end', () => {
        if (connection === opened) connection = null;
      });
      connection = opened;
    },
    async send(mail) {
      let bodySent = false;
      try {
        if (!connection) throw Object.assign(new Error('sem conexão'), { code: 'ECONNECTION' });
        const message = new MailComposer({
          from: mail.from ?? config.sender,
          to: mail.to,
          replyTo: mail.replyTo,
          subject: mail.subject,
          html: mail.html,
          text: mail.text,
          headers: mail.headers,
          messageId: mail.messageId,
        }).compile();
        const raw = await message.build();
        // Read only once the server has answered DATA: from then on it may have the message.
        const body = new Readable({
          read() {
            bodySent = true;
            this.push(raw);
            this.push(null);
          },
        });
        const current = connection;
        await new Promise<void>((resolve, reject) => current.send(message.getEnvelope(), body, (err) => (err ? reject(err) : resolve())));
        return { messageId: message.messageId() };
      } catch (e) {
        end();
        throw toSmtpError(e, bodySent);
      }
    },
    close: () => {
      connection?.quit();
      connection = null;
    },
  };
}

export async function sendMail(config: SmtpConfig, mail: OutgoingMail): Promise<{ messageId: string }> {
  const session = openSmtpSession(config);
  try {
    await session.ready();
    return await session.send(mail);
  } finally {
    session.close();
  }
}
