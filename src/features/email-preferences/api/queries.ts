// The student's e-mail preferences (issue 22): the kinds of e-mail a student may stop, stopped from the
// e-mail's own link (a signed token, no sign-in) or on the profile page.
import type { DbClient } from '@/lib/db';

/** The optional kinds, as the e-mails and the profile page name them. */
export const OPTIONAL_EMAIL_KINDS = {
  new_enrollment: 'Nova matrícula',
  content_released: 'Conteúdo liberado',
  we_miss_you: 'Sentimos sua falta',
  certificate_available: 'Certificado disponível',
} as const;
export type OptionalEmailKind = keyof typeof OPTIONAL_EMAIL_KINDS;

/** Stops the kind the token names, for the account it names; resolves with that kind. */
export async function unsubscribeByToken(client: DbClient, token: string): Promise<OptionalEmailKind> {
  const { data, error } = await client.rpc('unsubscribe_email', { p_token: token });
  if (error) throw error;
  return data as OptionalEmailKind;
}
