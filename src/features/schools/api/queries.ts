// Clients (SPEC §2, super admin): the administrators of every school, with their school.
import { fetchEveryRow, pageRange, type DbClient, type Page } from '@/platform/db';
import { invokeFunction } from '@/platform/functions';
import type { TemporaryPassword } from '@/concepts/accounts';
import type { ClientValues, SchoolValues } from '../schemas';

export interface ClientRow {
  user_id: string;
  school: { id: string; name: string; slug: string; member_area_name: string | null } | null;
  profile: { name: string; email: string | null; is_active: boolean } | null;
}

export interface SchoolOption {
  id: string;
  name: string;
  slug: string;
}

export const CLIENTS_PAGE_SIZE = 24;

/** One page of the school administrators, newest first. */
export async function fetchClients(client: DbClient, page = 0, pageSize = CLIENTS_PAGE_SIZE): Promise<Page<ClientRow>> {
  const { data, error, count } = await client
    .from('user_roles')
    .select('user_id, school:schools(id, name, slug, member_area_name), profile:profiles(name, email, is_active)', { count: 'exact' })
    .eq('role', 'SCHOOL_ADMIN')
    .order('created_at', { ascending: false })
    .order('user_id')
    .range(...pageRange(page, pageSize));
  if (error) throw error;
  return { rows: (data ?? []) as ClientRow[], total: count ?? 0 };
}

/** Every school, by name, for the picker of 'Novo Cliente'. */
export function fetchSchools(client: DbClient): Promise<SchoolOption[]> {
  return fetchEveryRow((from, to) => client.from('schools').select('id, name, slug').order('name').order('id').range(from, to));
}

/** A school administrator with a temporary password (edge function admin-create-school-admin). */
export function createClient(v: ClientValues): Promise<TemporaryPassword> {
  return invokeFunction<TemporaryPassword>('admin-create-school-admin', v);
}

export async function createSchool(client: DbClient, v: SchoolValues): Promise<SchoolOption> {
  const { data, error } = await client.from('schools').insert(v).select('id, name, slug').single();
  if (error) throw error;
  return data;
}
