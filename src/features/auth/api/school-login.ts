// The public login-page data of a school, looked up by slug (anon may read only these columns).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { sessionKeys } from '@/lib/session';
import type { Tables } from '@/types/database';

/** The columns anon may read (a column grant: `select *` is refused). */
export type SchoolLogin = Pick<
  Tables<'schools'>,
  'id' | 'slug' | 'name' | 'member_area_name' | 'logo_url' | 'login_banner_url' | 'login_banner_position' | 'primary_color' | 'secondary_color' | 'support_whatsapp'
>;

export const SCHOOL_LOGIN_COLUMNS =
  'id, slug, name, member_area_name, logo_url, login_banner_url, login_banner_position, primary_color, secondary_color, support_whatsapp';

export async function fetchSchoolLogin(slug: string): Promise<SchoolLogin | null> {
  const { data, error } = await supabase.from('schools').select(SCHOOL_LOGIN_COLUMNS).eq('slug', slug).maybeSingle();
  if (error) throw error;
  return data;
}

export const schoolLoginQuery = (slug: string) =>
  queryOptions({ queryKey: sessionKeys.schoolBySlug(slug), queryFn: () => fetchSchoolLogin(slug), staleTime: 5 * 60_000 });

export function useSchoolLogin(slug: string | undefined) {
  return useQuery({ ...schoolLoginQuery(slug ?? ''), enabled: !!slug });
}
