// Auth e-mails rendered from the templates config.toml names (`[auth.email.template.<type>]`), the
// same files a hosted project is configured with. Only GoTrue's `{{ .Name }}` substitutions are
// understood, not the rest of Go's template language; every value is HTML-escaped.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { AuthEmailTemplate, LocalSupabaseConfig } from '../config.ts';
import type { OutgoingMail } from './mailbox.ts';

export const escapeHtml = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export interface TemplateValues {
  ConfirmationURL: string;
  Email: string;
  SiteURL: string;
  RedirectTo: string;
  /** The address an e-mail change goes to (email_change only). */
  NewEmail?: string;
  /** The six-digit code of the e-mails that carry one (magic_link, invite, reauthentication, and confirmation from /otp). */
  Token?: string;
  /** The code's token hash: what the link carries, for a template that builds its own link. */
  TokenHash?: string;
}

export function renderTemplate(template: string, values: TemplateValues): string {
  return template.replace(/\{\{\s*\.(\w+)\s*\}\}/g, (_, name: string) => {
    const value = values[name as keyof TemplateValues];
    return typeof value === 'string' ? escapeHtml(value) : '';
  });
}

/** When config.toml names no template for an e-mail (pt-BR, like the files in supabase/templates). */
const BUILT_IN: Record<AuthEmailTemplate, { subject: string; html: string }> = {
  recovery: {
    subject: 'Redefinir senha',
    html: '<h2>Redefinir senha</h2>\n<p>Para criar uma nova senha, clique no link abaixo:</p>\n<p><a href="{{ .ConfirmationURL }}">Criar nova senha</a></p>\n',
  },
  confirmation: {
    subject: 'Confirme seu cadastro',
    html: '<h2>Confirme seu cadastro</h2>\n<p>Para ativar sua conta, clique no link abaixo:</p>\n<p><a href="{{ .ConfirmationURL }}">Confirmar meu e-mail</a></p>\n',
  },
  email_change: {
    subject: 'Confirme a alteração de e-mail',
    html: '<h2>Confirme a alteração de e-mail</h2>\n<p>Para trocar o e-mail da conta para {{ .NewEmail }}, clique no link abaixo:</p>\n<p><a href="{{ .ConfirmationURL }}">Confirmar a alteração</a></p>\n',
  },
  magic_link: {
    subject: 'Seu link de acesso',
    html: '<h2>Seu link de acesso</h2>\n<p>Para entrar, clique no link abaixo:</p>\n<p><a href="{{ .ConfirmationURL }}">Entrar</a></p>\n<p>Ou digite este código: <strong>{{ .Token }}</strong></p>\n<p>O link e o código valem uma vez só, por pouco tempo. Se não foi você quem pediu, ignore este e-mail.</p>\n',
  },
  invite: {
    subject: 'Convite para criar sua conta',
    html: '<h2>Convite para criar sua conta</h2>\n<p>Você recebeu um convite para criar uma conta. Para aceitar, clique no link abaixo:</p>\n<p><a href="{{ .ConfirmationURL }}">Aceitar o convite</a></p>\n<p>Ou digite este código: <strong>{{ .Token }}</strong></p>\n',
  },
  reauthentication: {
    subject: 'Confirme que é você',
    html: '<h2>Confirme que é você</h2>\n<p>Para continuar, digite este código: <strong>{{ .Token }}</strong></p>\n<p>Se não foi você quem pediu, ignore este e-mail.</p>\n',
  },
  repeated_signup: {
    subject: 'Tentativa de cadastro com o seu e-mail',
    html: '<h2>Você já tem uma conta</h2>\n<p>Alguém tentou criar uma conta com o e-mail {{ .Email }}, que já está cadastrado. Se foi você, entre com sua senha ou use "Esqueci minha senha".</p>\n<p><a href="{{ .SiteURL }}">Ir para o login</a></p>\n',
  },
};

/** The e-mail `name` to `values.Email` (or `to`), from its configured template or the built-in one. */
export async function authEmail(
  config: LocalSupabaseConfig,
  name: AuthEmailTemplate,
  values: TemplateValues,
  to = values.Email,
): Promise<OutgoingMail> {
  const configured = config.authEmail.templates[name];
  const template = configured
    ? {
        subject: configured.subject || BUILT_IN[name].subject,
        html: await readFile(path.resolve(config.rootDir, configured.contentPath), 'utf8'),
      }
    : BUILT_IN[name];
  return { to, subject: template.subject, html: renderTemplate(template.html, values) };
}
