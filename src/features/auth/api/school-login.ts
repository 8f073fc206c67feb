// The public login-page data of a school, looked up by slug (anon may read only these columns).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { supabase } from '@/lib/supabase';
import { sessionKeys } from '@/lib/session';

export interface SchoolLogin {
  id: string;
  slug: string;
  name: string;
  member_area_name: string | null;
  logo_url: string | null;
  login_banner_url: string | null;
  login_banner_position: string | null;
  primary_color: string | null;
  secondary_color: string | null;
  support_whatsapp: string | null;
}

export const SCHOOL_LOGIN_COLUMNS =
  'id, slug, name, member_area_name, logo_url, login_banner_url, login_banner_position, primary_color, secondary_color, support_whatsapp';

export async function fetchSchoolLogin(slug: string): Promise<SchoolLogin | null> {
  const { data, error } = await supabase.from('schools').select(SCHOOL_LOGIN_COLUMNS).eq('slug', slug).maybeSingle();
  if (error) throw error;
  return data as SchoolLogin | null;
}

export const schoolLoginQuery = (slug: string) =>
  queryOptions({ queryKey: sessionKeys.schoolBySlug(slug), queryFn: () => fetchSchoolLogin(slug), staleTime: 5 * 60_000 });

export function useSchoolLogin(slug: string | undefined) {
  return useQuery({ ...schoolLoginQuery(slug ?? ''), enabled: !!slug });
}
