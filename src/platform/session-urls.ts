// The signed-in visit's first two requests (the profile with its school, and the roles), without
// imports: the app (./session.ts, through supabase-js) and the HTML's inline script
// (src/app/first-visit-pages.ts's templates, which it starts with the stored session before any
// JavaScript has loaded) ask for the same columns from here.

export const PROFILE_WITH_SCHOOL_SELECT = '*, school:schools!profiles_school_id_fkey(*)';
export const ROLES_SELECT = 'user_id, school_id, role';

const restUrl = (apiUrl: string, table: string, select: string, idColumn: string) =>
  `${apiUrl.replace(/\/+$/, '')}/rest/v1/${table}?${new URLSearchParams({ select: select.replaceAll(' ', '') })}&${idColumn}=eq.`;

/** The user's profile is `profileUrlPrefix(api) + userId`; their roles `rolesUrlPrefix(api) + userId`. */
export const profileUrlPrefix = (apiUrl: string) => restUrl(apiUrl, 'profiles', PROFILE_WITH_SCHOOL_SELECT, 'id');
export const rolesUrlPrefix = (apiUrl: string) => restUrl(apiUrl, 'user_roles', ROLES_SELECT, 'user_id');
