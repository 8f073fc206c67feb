// The public login-page data of a school, looked up by slug (anon may read only these columns).
// A plain PostgREST GET: the login page paints before supabase-js loads (api-config.ts).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { SUPABASE_ANON_KEY, SUPABASE_URL } from '@/platform/api-config';
import { trackedFetch } from '@/platform/connection';
import { sessionKeys } from '@/platform/session';
import type { Tables } from '@/types/database';
import { schoolLoginHeaders, schoolLoginUrlPrefix } from './school-login-url';

/** The columns anon may read (school-login-url.ts's SCHOOL_LOGIN_COLUMNS). */
export type SchoolLogin = Pick<
  Tables<'schools'>,
  'id' | 'slug' | 'name' | 'member_area_name' | 'logo_url' | 'login_banner_url' | 'login_banner_position' | 'primary_color' | 'secondary_color' | 'support_whatsapp'
>;

export async function fetchSchoolLogin(slug: string): Promise<SchoolLogin | null> {
  const res = await trackedFetch(schoolLoginUrlPrefix(SUPABASE_URL) + encodeURIComponent(slug), { headers: schoolLoginHeaders(SUPABASE_ANON_KEY) });
  const body = (await res.json().catch(() => null)) as SchoolLogin[] | { message?: string } | null;
  // Shaped like a PostgREST error from supabase-js (message and status), for the retry rules.
  if (!res.ok || !Array.isArray(body)) throw Object.assign(new Error((body as { message?: string } | null)?.message ?? `HTTP ${res.status}`), { status: res.status });
  return body[0] ?? null;
}

export const schoolLoginQuery = (slug: string) =>
  queryOptions({ queryKey: sessionKeys.schoolBySlug(slug), queryFn: () => fetchSchoolLogin(slug), staleTime: 5 * 60_000 });

export function useSchoolLogin(slug: string | undefined) {
  return useQuery({ ...schoolLoginQuery(slug ?? ''), enabled: !!slug });
}
