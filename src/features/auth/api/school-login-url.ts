// The login page's school request, without imports: the app (school-login.ts) and the HTML's inline
// preload (src/app/first-visit-pages.ts's template, which it starts before any JavaScript has
// loaded) build the same request from here.

/** The columns anon may read (a column grant: `select *` is refused). */
export const SCHOOL_LOGIN_COLUMNS =
  'id, slug, name, member_area_name, logo_url, login_banner_url, login_banner_position, primary_color, secondary_color, support_whatsapp';

/** The school's login data is `schoolLoginUrlPrefix(api) + encodeURIComponent(slug)`. */
export function schoolLoginUrlPrefix(apiUrl: string): string {
  const query = new URLSearchParams({ select: SCHOOL_LOGIN_COLUMNS.replaceAll(' ', ''), limit: '1' });
  return `${apiUrl.replace(/\/+$/, '')}/rest/v1/schools?${query}&slug=eq.`;
}

/** The headers of that request: the public anon key, as supabase-js sends it. */
export const schoolLoginHeaders = (anonKey: string) => ({ apikey: anonKey, Authorization: `Bearer ${anonKey}`, Accept: 'application/json' });
