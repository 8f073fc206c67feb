// The local mailer: auth "sends" its e-mails here instead of through SMTP, and the inbox page
// (./inbox.ts) shows them, as `supabase start` offers a local inbox. Messages live in memory only: a
// restart empties the mailbox, and only the newest MAX_MESSAGES are kept.
import { randomUUID } from 'node:crypto';

const MAX_MESSAGES = 200;

export interface OutgoingMail {
  to: string;
  subject: string;
  /** The HTML body (rendered from a template whose values are already escaped). */
  html: string;
}

export interface MailMessage extends OutgoingMail {
  id: string;
  /** The body as plain text. */
  text: string;
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
    const message: MailMessage = {
      id: randomUUID(),
      to: mail.to.toLowerCase(),
      subject: mail.subject,
      html: mail.html,
      text: toText(mail.html),
      links: [...mail.html.matchAll(/href="([^"]*)"/gi)].map((m) => decode(m[1]!)),
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
