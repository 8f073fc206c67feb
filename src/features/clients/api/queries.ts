// Clients (SPEC §2, super admin): the administrators of every school, with their school.
import type { DbClient } from '@/lib/db';

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

export async function fetchClients(client: DbClient): Promise<ClientRow[]> {
  const { data, error } = await client
    .from('user_roles')
    .select('user_id, school:schools(id, name, slug, member_area_name), profile:profiles(name, email, is_active)')
    .eq('role', 'SCHOOL_ADMIN')
    .order('created_at', { ascending: false })
    .limit(1000);
  if (error) throw error;
  return (data ?? []) as ClientRow[];
}

export async function fetchSchools(client: DbClient): Promise<SchoolOption[]> {
  const { data, error } = await client.from('schools').select('id, name, slug').order('name').limit(1000);
  if (error) throw error;
  return data ?? [];
}
