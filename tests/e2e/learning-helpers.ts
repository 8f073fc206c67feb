// Helpers of the learning journeys (tests/e2e/learning-*.spec.ts): signing in by putting a real
// GoTrue session into the SPA's storage (no dependency on the login UI), and fresh students created
// with the service role so that journeys which change data (completion, rating, comments, video
// position) never touch the seeded accounts other journeys rely on.
import { expect, type Page } from '@playwright/test';
import { LOCAL_ANON_KEY, LOCAL_SERVICE_ROLE_KEY } from '../../local-supabase/config.ts';
import { PASSWORD } from './helpers';

export const API_URL = `http://localhost:${Number(process.env.E2E_API_PORT || 54331)}`;
export const SCHOOL_ID = '5c000000-0000-4000-8000-000000000001';
export const COURSE = { excel: 'c0000000-0000-4000-8000-000000000001', marketing: 'c0000000-0000-4000-8000-000000000002' };
export const LESSON = {
  welcome: 'e0000000-0000-4000-8000-000000000001', // preview, youtube
  interface: 'e0000000-0000-4000-8000-000000000002', // vimeo, paid
  formulas: 'e0000000-0000-4000-8000-000000000003', // uploaded video (6 s), PDF material
  procv: 'e0000000-0000-4000-8000-000000000004', // youtube, link material
  charts: 'e0000000-0000-4000-8000-000000000005', // no video
};

export async function api(path: string, init: RequestInit & { key?: string; token?: string } = {}) {
  const key = init.key ?? LOCAL_ANON_KEY;
  const res = await fetch(`${API_URL}${path}`, {
    ...init,
    headers: { apikey: key, Authorization: `Bearer ${init.token ?? key}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) },
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${path} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

export async function passwordSession(email: string, password = PASSWORD) {
  return api('/auth/v1/token?grant_type=password', { method: 'POST', body: JSON.stringify({ email, password }) });
}

/** Signs the page in as `email` (before any script of the app runs) and optionally marks today's
 * announcement of the demo school as seen. */
export async function signInAs(page: Page, email: string, { announcementSeen = true }: { announcementSeen?: boolean } = {}) {
  const session = await passwordSession(email);
  const storageKey = `sb-${new URL(API_URL).hostname.split('.')[0]}-auth-token`;
  await page.addInitScript(
    ({ storageKey, session, seen, schoolId }) => {
      // Init scripts run in every frame too: an embedded player's frame may not touch storage.
      if (window !== window.top) return;
      if (!sessionStorage.getItem('e2e-signed-in')) {
        localStorage.setItem(storageKey, JSON.stringify(session));
        sessionStorage.setItem('e2e-signed-in', '1');
      }
      if (seen) {
        const d = new Date();
        const day = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
        localStorage.setItem(`plataforma:announcement-seen:${schoolId}`, day);
      }
    },
    { storageKey, session, seen: announcementSeen, schoolId: SCHOOL_ID },
  );
  return session as { access_token: string; user: { id: string } };
}

/** A new student of the demo school, enrolled (ACTIVE) in the Excel course unless told otherwise. */
export async function freshStudent(name: string, { enrollIn = [COURSE.excel] }: { enrollIn?: string[] } = {}) {
  const email = `e2e.learning.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@exemplo.com.br`;
  const user = await api('/auth/v1/admin/users', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: SCHOOL_ID } }),
  });
  const id = (user.id ?? user.user?.id) as string;
  for (const courseId of enrollIn) {
    await api('/rest/v1/enrollments', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ user_id: id, course_id: courseId, status: 'ACTIVE' }) });
  }
  return { id, email };
}

/** Writes a progress row as the service role (e.g. a saved video position). */
export async function setProgress(userId: string, lessonId: string, values: { last_position_sec?: number; completed_at?: string | null }) {
  await api('/rest/v1/progress?on_conflict=user_id,lesson_id', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    headers: { Prefer: 'resolution=merge-duplicates' },
    body: JSON.stringify({ user_id: userId, lesson_id: lessonId, ...values }),
  });
}

export async function readProgress(userId: string, lessonId: string) {
  const rows = await api(`/rest/v1/progress?select=completed_at,last_position_sec&user_id=eq.${userId}&lesson_id=eq.${lessonId}`, { key: LOCAL_SERVICE_ROLE_KEY });
  return (rows as { completed_at: string | null; last_position_sec: number }[])[0] ?? null;
}

export async function expectCourseCard(page: Page, title: string) {
  const card = page.getByTestId('course-card').filter({ has: page.getByRole('heading', { name: title }) });
  await expect(card).toBeVisible();
  return card;
}

/** A new SCHOOL_ADMIN of the demo school, for journeys that must not share a session with the seeded
 * admin (another journey's sign-out ends every session of that account). */
export async function freshSchoolAdmin(name = 'Admin E2E') {
  const email = `e2e.admin.${Date.now()}.${Math.random().toString(36).slice(2, 8)}@exemplo.com.br`;
  const user = await api('/auth/v1/admin/users', {
    method: 'POST',
    key: LOCAL_SERVICE_ROLE_KEY,
    body: JSON.stringify({ email, password: PASSWORD, email_confirm: true, user_metadata: { name, school_id: SCHOOL_ID } }),
  });
  const id = (user.id ?? user.user?.id) as string;
  await api('/rest/v1/user_roles', { method: 'POST', key: LOCAL_SERVICE_ROLE_KEY, body: JSON.stringify({ user_id: id, school_id: SCHOOL_ID, role: 'SCHOOL_ADMIN' }) });
  return { id, email };
}
