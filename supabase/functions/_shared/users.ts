// Creating accounts with the service role: the auth user (the auth trigger creates the profile
// from the metadata), then the profile fields, and the user is deleted again if any later step fails,
// so no orphan auth user is ever left behind.
import type { SupabaseClient } from 'npm:@supabase/supabase-js@2.109.0';
import { HttpError } from './http.ts';

export interface NewAccount {
  email: string;
  password: string;
  name: string;
  schoolId: string;
  cpf?: string | null;
  phone?: string | null;
  address?: string | null;
  mustChangePassword?: boolean;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The id of the auth user with this e-mail, or null. */
export async function findUserIdByEmail(admin: SupabaseClient, email: string): Promise<string | null> {
  const { data, error } = await admin.rpc('find_user_id_by_email', { p_email: normalizeEmail(email) });
  if (error) throw new Error(`find_user_id_by_email: ${error.message}`);
  return (data as string | null) ?? null;
}

export interface ExistingAccount {
  id: string;
  /** The owner of the address proved it (opened a confirmation or recovery link, or staff created it). */
  confirmed: boolean;
  schoolId: string | null;
}

/**
 * The account with this e-mail, or null. An unconfirmed one may belong to anybody (sign-up needs no
 * proof of the address): the database keeps whatever it is granted PENDING until the owner confirms.
 */
export async function findAccountByEmail(admin: SupabaseClient, email: string): Promise<ExistingAccount | null> {
  const id = await findUserIdByEmail(admin, email);
  if (!id) return null;
  const [{ data: user, error }, { data: profile }] = await Promise.all([
    admin.auth.admin.getUserById(id),
    admin.from('profiles').select('school_id').eq('id', id).maybeSingle(),
  ]);
  if (error || !user.user) throw new Error(`getUserById: ${error?.message ?? 'not found'}`);
  return { id, confirmed: !!user.user.email_confirmed_at, schoolId: (profile?.school_id as string | null | undefined) ?? null };
}

/**
 * Mails the sign-up confirmation again (GoTrue's /resend), its link back to the school's page. Best
 * effort: GoTrue's per-address limit (429) or any other refusal only means no new e-mail right now;
 * the owner gets one from the sign-in page too. Never logs the address.
 */
export async function resendConfirmation(admin: SupabaseClient, email: string, schoolId: string): Promise<boolean> {
  const site = Deno.env.get('SITE_URL')?.replace(/\/+$/, '');
  const { data: school } = site ? await admin.from('schools').select('slug').eq('id', schoolId).maybeSingle() : { data: null };
  const { error } = await admin.auth.resend({
    type: 'signup',
    email: normalizeEmail(email),
    ...(site ? { options: { emailRedirectTo: school?.slug ? `${site}/${school.slug}` : site } } : {}),
  });
  if (error) {
    const status = (error as { status?: number }).status;
    if (status !== 429) console.warn(`confirmation e-mail not sent: ${status ?? ''} ${(error as { code?: string }).code ?? error.message}`);
    return false;
  }
  return true;
}

/**
 * Creates the auth user and completes its profile. `after` runs more steps (a role, an enrollment)
 * inside the same all-or-nothing unit, as does queueing the account's "Acesso liberado" e-mail. Throws
 * HttpError 409 'E-mail já cadastrado' for a taken e-mail.
 */
export async function createAccount(
  admin: SupabaseClient,
  account: NewAccount,
  after?: (userId: string) => Promise<void>,
): Promise<string> {
  const email = normalizeEmail(account.email);
  const { data, error } = await admin.auth.admin.createUser({
    email,
    password: account.password,
    email_confirm: true,
    user_metadata: {
      name: account.name,
      school_id: account.schoolId,
      must_change_password: account.mustChangePassword ?? true,
    },
  });
  if (error || !data.user) {
    const status = (error as { status?: number } | null)?.status;
    if (status === 422 || /already been registered|already exists/i.test(error?.message ?? '')) {
      throw new HttpError(409, 'Já existe uma conta com este e-mail');
    }
    throw new HttpError(400, `Não foi possível criar o usuário: ${error?.message ?? 'erro desconhecido'}`);
  }
  const userId = data.user.id;
  try {
    const { error: profileError } = await admin
      .from('profiles')
      .update({
        name: account.name,
        school_id: account.schoolId,
        cpf: account.cpf || null,
        phone: account.phone || null,
        address: account.address || null,
        must_change_password: account.mustChangePassword ?? true,
      })
      .eq('id', userId);
    if (profileError) throw new HttpError(400, `Dados do perfil inválidos: ${profileError.message}`);
    await after?.(userId);
    // "Acesso liberado" (issue 22): every account made for someone else is told, with a link to choose
    // their own password (made when the e-mail is sent, as are its courses); self sign-ups are not.
    const { error: mailError } = await admin.rpc('enqueue_email', {
      p_school_id: account.schoolId,
      p_user_id: userId,
      p_to: email,
      p_kind: 'access_granted',
      p_key: `account:${userId}`,
      p_payload: { name: account.name },
    });
    if (mailError) throw new HttpError(500, `Não foi possível preparar o e-mail de acesso: ${mailError.message}`);
    return userId;
  } catch (e) {
    await admin.auth.admin.deleteUser(userId);
    throw e;
  }
}
