// The student's e-mail preferences (issue 22): the kinds of e-mail a student may stop, stopped from the
// e-mail's own link (a signed token, no sign-in) or on the profile page.
import type { DbClient } from '@/platform/db';
import { EMAIL_KIND_LABELS } from '@/concepts/email-kinds';
import { invokeFunction } from '@/platform/functions';

/** The optional kinds (the student may stop them; private.is_optional_email_kind), as the screens name them. */
export const OPTIONAL_EMAIL_KINDS = {
  new_enrollment: EMAIL_KIND_LABELS.new_enrollment,
  content_released: EMAIL_KIND_LABELS.content_released,
  we_miss_you: EMAIL_KIND_LABELS.we_miss_you,
  certificate_available: EMAIL_KIND_LABELS.certificate_available,
  checkout_recovery: EMAIL_KIND_LABELS.checkout_recovery,
  turma_waitlist_open: EMAIL_KIND_LABELS.turma_waitlist_open,
  announcement: EMAIL_KIND_LABELS.announcement,
} as const;
export type OptionalEmailKind = keyof typeof OPTIONAL_EMAIL_KINDS;

/** Stops the kind the token names, for the account it names (email-unsubscribe); resolves with that kind. */
export async function unsubscribeByToken(token: string): Promise<OptionalEmailKind> {
  const { unsubscribed } = await invokeFunction<{ unsubscribed: OptionalEmailKind }>('email-unsubscribe', { token, action: 'unsubscribe' });
  return unsubscribed;
}

/** email-unsubscribe refused the token itself ('Link inválido', HTTP 400): not a failure worth trying again. */
export const isInvalidLinkError = (error: unknown) => (error as { status?: unknown } | null)?.status === 400;

/** "Desfazer": the kind the token names is sent to its account again; resolves with that kind. */
export async function resubscribeByToken(token: string): Promise<OptionalEmailKind> {
  const { resubscribed } = await invokeFunction<{ resubscribed: OptionalEmailKind }>('email-unsubscribe', { token, action: 'resubscribe' });
  return resubscribed;
}

export const OPTIONAL_KIND_LIST = Object.keys(OPTIONAL_EMAIL_KINDS) as OptionalEmailKind[];

/**
 * The kinds Configurações → E-mails switches (school_email_settings.disabled_kinds): every optional kind but
 * the recovery e-mails, whose school switch is "Recuperação de vendas" (school_recovery_settings, issue 41),
 * and the turmas' (issue 40), which the school chooses per turma (its waiting list) and per announcement
 * ("Enviar também por e-mail").
 */
const NOT_SCHOOL_SWITCHED: readonly OptionalEmailKind[] = ['checkout_recovery', 'turma_waitlist_open', 'announcement'];
export const SCHOOL_KIND_LIST = OPTIONAL_KIND_LIST.filter((k) => !NOT_SCHOOL_SWITCHED.includes(k));

/** Settings → E-mails: the school's choices (defaults when it never saved any). */
export interface SchoolEmailSettings {
  disabled_kinds: OptionalEmailKind[];
  sender_name: string | null;
  reply_to: string | null;
}

export async function fetchSchoolEmailSettings(client: DbClient, schoolId: string): Promise<SchoolEmailSettings> {
  const { data, error } = await client.from('school_email_settings').select('disabled_kinds, sender_name, reply_to').eq('school_id', schoolId).maybeSingle();
  if (error) throw error;
  return { disabled_kinds: (data?.disabled_kinds ?? []) as OptionalEmailKind[], sender_name: data?.sender_name ?? null, reply_to: data?.reply_to ?? null };
}

/** Saves the columns given, keeping the others (an upsert merges only the columns it names): a switch
 * saves `disabled_kinds`, the sender's form `sender_name` and `reply_to`. */
export async function saveSchoolEmailSettings(client: DbClient, schoolId: string, settings: Partial<SchoolEmailSettings>): Promise<void> {
  const { error } = await client.from('school_email_settings').upsert({ school_id: schoolId, ...settings }).select('school_id').single();
  if (error) throw error;
}

/** Whether the SMTP secrets are set, and a message as the students get it (email-preview function). */
export interface EmailPreview {
  smtp_configured: boolean;
  preview?: { subject: string; html: string; text: string };
}
export const fetchEmailPreview = (schoolId: string, kind?: string) =>
  invokeFunction<EmailPreview>('email-preview', kind ? { school_id: schoolId, kind } : { school_id: schoolId });

/** The kinds this student stopped (profile → Preferências de e-mail). */
export async function fetchMyUnsubscribes(client: DbClient, userId: string): Promise<OptionalEmailKind[]> {
  const { data, error } = await client.from('email_unsubscribes').select('kind').eq('user_id', userId);
  if (error) throw error;
  return (data ?? []).map((r) => r.kind as OptionalEmailKind);
}

export async function setKindWanted(client: DbClient, { userId, kind, wanted }: { userId: string; kind: OptionalEmailKind; wanted: boolean }): Promise<void> {
  const { error } = wanted
    ? await client.from('email_unsubscribes').delete().eq('user_id', userId).eq('kind', kind)
    : await client.from('email_unsubscribes').upsert({ user_id: userId, kind }, { ignoreDuplicates: true });
  if (error) throw error;
}
