// Auth e-mails rendered from the templates config.toml names (`[auth.email.template.<type>]`), the
// same files a hosted project is configured with. Only GoTrue's `{{ .Name }}` substitutions are
// understood, not the rest of Go's template language; every value is HTML-escaped.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LocalSupabaseConfig } from '../config.ts';
import type { OutgoingMail } from './mailbox.ts';

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export interface TemplateValues {
  ConfirmationURL: string;
  Email: string;
  SiteURL: string;
  RedirectTo: string;
}

export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, name: string) =>
    name in values ? escapeHtml(values[name as keyof TemplateValues]) : '',
  );
}

/** When config.toml names no recovery template. */
const BUILT_IN_RECOVERY = {
  subject: 'Redefinir senha',
  html: '<h2>Redefinir senha</h2>\n<p>Para criar uma nova senha, clique no link abaixo:</p>\n<p><a href="{{ .ConfirmationURL }}">Criar nova senha</a></p>\n',
};

export async function recoveryEmail(config: LocalSupabaseConfig, values: TemplateValues): Promise<OutgoingMail> {
  const configured = config.authEmail.recoveryTemplate;
  const template = configured
    ? {
        subject: configured.subject,
        html: await readFile(path.resolve(config.rootDir, configured.contentPath), 'utf8'),
      }
    : BUILT_IN_RECOVERY;
  return { to: values.Email, subject: template.subject, html: renderTemplate(template.html, values) };
}
