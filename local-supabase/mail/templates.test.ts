// Issue 46, item 4: the auth e-mails speak to anyone without assuming a gender ("Você foi convidado" was
// the invite's subject): the project's templates (supabase/templates, what a hosted project is configured
// with) and local-supabase's built-in ones for the e-mails config.toml does not name.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuthEmailTemplate, LocalSupabaseConfig } from '../config.ts';
import { authEmail } from './templates.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const GENDERED = /\b(convidad[oa]|bem-vind[oa]|matriculad[oa]|obrigad[oa]|car[oa] alun[oa]|prezad[oa]|o aluno|a aluna)\b/i;
const NAMES: AuthEmailTemplate[] = ['confirmation', 'recovery', 'email_change', 'repeated_signup', 'magic_link', 'invite', 'reauthentication'];

describe('auth e-mails assume no gender', () => {
  it.each(readdirSync(path.join(ROOT, 'supabase/templates')).filter((f) => f.endsWith('.html')))('supabase/templates/%s', (file) => {
    expect(readFileSync(path.join(ROOT, 'supabase/templates', file), 'utf8')).not.toMatch(GENDERED);
  });

  it.each(NAMES)("local-supabase's built-in %s", async (name) => {
    const config = { rootDir: ROOT, authEmail: { templates: {} } } as unknown as LocalSupabaseConfig;
    const mail = await authEmail(config, name, { ConfirmationURL: 'http://x/verify', Email: 'ana@exemplo.com', SiteURL: 'http://x', RedirectTo: 'http://x', NewEmail: 'nova@exemplo.com', Token: '123456' });
    expect(`${mail.subject}\n${mail.html}`).not.toMatch(GENDERED);
  });
});
