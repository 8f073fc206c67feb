// The inbox's SMTP side: edge functions send product e-mails with real SMTP (supabase/functions/
// _shared/smtp.ts), and locally they reach this listener, which delivers them into the same Mailbox
// the auth e-mails land in. Protocol and MIME parsing are smtp-server and mailparser (Nodemailer's).
// Loopback only, plain text (no STARTTLS: nothing leaves the machine), AUTH PLAIN/LOGIN required with
// the configured user and password, so a sender that forgets its credentials fails here as it would
// at a provider. Messages over MAX_MESSAGE_BYTES are refused with 552. A recipient named
// smtp-fail-<4xx|5xx>@… is refused with that code: how tests make a send fail, temporarily or for good.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerError } from 'smtp-server';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import type { LocalSupabaseConfig } from '../config.ts';
import type { Mailbox } from './mailbox.ts';

/** A provider's usual cap (SES and Resend take 10 MB or more; our e-mails are a few kB). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
/** Headers the inbox keeps besides From and Reply-To; any X-… header is kept too. */
const KEPT_HEADERS = new Set(['message-id', 'list-unsubscribe', 'list-unsubscribe-post', 'auto-submitted']);

export interface SmtpListener {
  host: string;
  port: number;
  close(): Promise<void>;
}

const digest = (s: string) => createHash('sha256').update(s).digest();
const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

function smtpError(message: string, responseCode: number): SMTPServerError {
  return Object.assign(new Error(message), { responseCode });
}

function addressText(a: AddressObject | AddressObject[] | undefined): string | null {
  if (!a) return null;
  return (Array.isArray(a) ? a.map((x) => x.text).join(', ') : a.text) || null;
}

/** The kept headers as sent (mailparser turns List-* into objects; the raw line is what a test checks). */
function keptHeaders(mail: ParsedMail): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { key, line } of mail.headerLines) {
    if (!KEPT_HEADERS.has(key) && !key.startsWith('x-')) continue;
    out[key] = line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
  }
  return out;
}

export async function startSmtpListener(config: Pick<LocalSupabaseConfig, 'host' | 'smtp'>, mailbox: Mailbox): Promise<SmtpListener> {
  const { user, pass } = config.smtp;
  const server = new SMTPServer({
    name: 'local-supabase',
    banner: 'local-supabase inbox',
    logger: false,
    disabledCommands: ['STARTTLS'],
    authMethods: ['PLAIN', 'LOGIN'],
    // AUTH without TLS is fine on loopback; nothing else can connect.
    allowInsecureAuth: true,
    size: MAX_MESSAGE_BYTES,
    rejectOversized: true,
    // Short, so close() does not wait long for a client that keeps its connection open.
    closeTimeout: 1000,
    onAuth(auth, _session, callback) {
      if (sameSecret(auth.username ?? '', user) && sameSecret(auth.password ?? '', pass)) return callback(null, { user: auth.username });
      callback(smtpError('Invalid username or password', 535));
    },
    onRcptTo(address, _session, callback) {
      const code = /^smtp-fail-([45]\d\d)@/i.exec(address.address)?.[1];
      callback(code ? smtpError(`Simulated failure for ${address.address}`, Number(code)) : null);
    },
    onData(stream, session, callback) {
      simpleParser(stream, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true })
        .then((mail) => {
          if (stream.sizeExceeded) return callback(smtpError('Message exceeds fixed maximum message size', 552));
          const recipients = session.envelope.rcptTo.map((r) => r.address);
          for (const to of recipients) {
            mailbox.send({
              to,
              subject: mail.subject ?? '',
              html: typeof mail.html === 'string' ? mail.html : '',
              text: mail.text?.trimEnd(),
              from: addressText(mail.from),
              reply_to: addressText(mail.replyTo),
              headers: keptHeaders(mail),
            });
          }
          callback();
        })
        .catch((e: Error) => {
          stream.resume(); // drain, so the client gets the answer
          callback(smtpError(`Could not parse the message: ${e.message}`, 554));
        });
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.server.once('error', (e: NodeJS.ErrnoException) =>
      reject(e.code === 'EADDRINUSE' ? new Error(`SMTP port ${config.smtp.port} is in use: set LOCAL_SUPABASE_SMTP_PORT to another (0 = any free port)`) : e),
    );
    server.listen(config.smtp.port, config.host, () => resolve());
  });
  const address = server.server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The SMTP_* function secrets that point the edge functions at this listener: what local-supabase
 * gives them unless supabase/functions/.env or FUNCTIONS_SECRET_* name an SMTP_HOST of their own.
 */
export function localSmtpSecrets(config: Pick<LocalSupabaseConfig, 'host' | 'smtp'>): Record<string, string> {
  return {
    SMTP_HOST: config.host,
    SMTP_PORT: String(config.smtp.port),
    SMTP_USER: config.smtp.user,
    SMTP_PASS: config.smtp.pass,
    SMTP_SENDER: LOCAL_SMTP_SENDER,
  };
}

export const LOCAL_SMTP_SENDER = 'nao-responda@localhost';
