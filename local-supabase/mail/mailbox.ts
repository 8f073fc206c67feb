// The local mailer: auth "sends" its e-mails here instead of through SMTP, the edge functions' e-mails
// arrive here through the SMTP listener (./smtp-listener.ts), and the inbox page (./inbox.ts) shows
// them, as `supabase start` offers a local inbox. Messages live in memory only: a restart empties the
// mailbox, and only the newest MAX_MESSAGES are kept.
import { randomUUID } from 'node:crypto';

const MAX_MESSAGES = 200;

export interface OutgoingMail {
  to: string;
  subject: string;
  /** The HTML body (rendered from a template whose values are already escaped); '' when the message has none. */
  html: string;
  /** The message's own plain-text part; without one, `text` is derived from `html`. */
  text?: string;
  /** The From and Reply-To headers as written (`"Escola Demo" <nao-responda@…>`). */
  from?: string | null;
  reply_to?: string | null;
  /** A few headers worth checking, names in lower case (List-Unsubscribe, Message-ID, X-…). */
  headers?: Record<string, string>;
}

export interface MailMessage extends OutgoingMail {
  id: string;
  /** The body as plain text. */
  text: string;
  from: string | null;
  reply_to: string | null;
  headers: Record<string, string>;
  /** Every link of the body, in order. */
  links: string[];
  /** ISO 8601. */
  sent_at: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };
const decode = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, e: string) => ENTITIES[e]!);

function toText(html: string): string {
  const withLinks = html.replace(
    /<a\s[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi,
    (_, href: string, label: string) => `${label} (${href})`,
  );
  return decode(
    withLinks
      .replace(/<(?:br|\/p|\/h[1-6]|\/li|\/div)\s*\/?>/gi, '\n')
      .replace(/<[^>]+>/g, '')
      .replace(/[ \t]+/g, ' ')
      .replace(/\n\s*\n+/g, '\n\n'),
  ).trim();
}

export class Mailbox {
  private messages: MailMessage[] = [];

  send(mail: OutgoingMail): MailMessage {
    const text = mail.text ?? toText(mail.html);
    const message: MailMessage = {
      id: randomUUID(),
      to: mail.to.toLowerCase(),
      subject: mail.subject,
      html: mail.html,
      text,
      from: mail.from ?? null,
      reply_to: mail.reply_to ?? null,
      headers: mail.headers ?? {},
      // A text-only message's links are its bare URLs.
      links: mail.html
        ? [...mail.html.matchAll(/href="([^"]*)"/gi)].map((m) => decode(m[1]!))
        : [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]),
      sent_at: new Date().toISOString(),
    };
    this.messages = [message, ...this.messages].slice(0, MAX_MESSAGES);
    return message;
  }

  /** Newest first; only those sent to `to` when given (case-insensitive). */
  list(to?: string | null): MailMessage[] {
    const address = to?.trim().toLowerCase();
    return address ? this.messages.filter((m) => m.to === address) : [...this.messages];
  }
}
