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

/**
 * Creates the auth user and completes its profile. `after` runs more steps (a role, an enrollment)
 * inside the same all-or-nothing unit. Throws HttpError 409 'E-mail já cadastrado' for a taken e-mail.
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
    return userId;
  } catch (e) {
    await admin.auth.admin.deleteUser(userId);
    throw e;
  }
}
