// The inline script's templates (first-visit-requests.ts) are worth something only while they are,
// byte for byte, what the app asks for first: these run the app's own loaders and session queries
// against a recording fetch and compare. A select or a parameter changed on one side fails here.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fetchSchoolLogin } from '@/features/auth/api/school-login';
import { AUTH_STORAGE_KEY, SUPABASE_URL } from '@/lib/api-config';
import { firstVisitKey } from '@/lib/first-visit';
import { queryClient } from '@/lib/query-client';
import { fetchRoles } from '@/lib/session';
import { firstVisitRequests, type RequestTemplate } from './first-visit-requests';
import { prefetchCourse, prefetchHome, prefetchLesson } from './route-prefetch';

const USER = 'a0000000-0000-4000-8000-000000000011';
const SCHOOL = '5c000000-0000-4000-8000-000000000001';
const COURSE = 'c0000000-0000-4000-8000-000000000001';
const LESSON = 'e0000000-0000-4000-8000-000000000003';
const TOKEN = 'the-stored-access-token';

const templates = firstVisitRequests(SUPABASE_URL);
const fill = ([url, body]: RequestTemplate, values: Record<string, string>) => {
  const put = (s: string) => s.replace(/\{(\w+)\}/g, (_, name: string) => values[name]);
  const filledBody = put(body);
  return firstVisitKey(filledBody ? 'POST' : 'GET', put(url), filledBody);
};
const route = (path: string) => templates.routes.find((r) => new RegExp(r.pattern).test(path));

/** Every request the app made, as first-visit.ts keys it, with its Authorization and Prefer. */
let requests: { key: string; auth: string | null; prefer: string | null }[] = [];

beforeEach(() => {
  requests = [];
  queryClient.clear();
  const expiresAt = Math.floor(Date.now() / 1000) + 3600;
  localStorage.setItem(
    AUTH_STORAGE_KEY,
    JSON.stringify({
      access_token: TOKEN,
      refresh_token: 'r',
      token_type: 'bearer',
      expires_in: 3600,
      expires_at: expiresAt,
      user: { id: USER, aud: 'authenticated' },
    }),
  );
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const headers = new Headers(init?.headers);
      requests.push({
        key: firstVisitKey(init?.method ?? 'GET', String(input), typeof init?.body === 'string' ? init.body : ''),
        auth: headers.get('Authorization'),
        prefer: headers.get('Prefer'),
      });
      const url = String(input);
      const rows = url.includes('/rest/v1/profiles?')
        ? [{ id: USER, school_id: SCHOOL, school: null }]
        : url.endsWith('/rpc/quiz_for_student')
          ? null
          : [];
      return new Response(JSON.stringify(rows), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
});

const ids = { user: USER, school: SCHOOL, 1: COURSE, 2: LESSON };

describe("the inline script's requests are the app's own", () => {
  it("home: the profile, then the student's catalog and quiz states", async () => {
    await prefetchHome();
    expect(requests.map((r) => r.key)).toEqual([
      fill(templates.session[0], ids),
      ...route('/')!.requests.map((t) => fill(t, ids)),
    ]);
  });

  it("a lesson: the course's outline, the lesson, its quiz and the course's quiz states", async () => {
    await prefetchLesson({ courseId: COURSE, lessonId: LESSON });
    expect(requests.map((r) => r.key).sort()).toEqual(
      route(`/course/${COURSE}/lesson/${LESSON}`)!
        .requests.map((t) => fill(t, ids))
        .sort(),
    );
  });

  it('a course: its outline and the quiz states of its lessons', async () => {
    await prefetchCourse({ courseId: COURSE });
    expect(requests.map((r) => r.key).sort()).toEqual(
      route(`/course/${COURSE}`)!
        .requests.map((t) => fill(t, ids))
        .sort(),
    );
  });

  it('the roles of every signed-in page', async () => {
    await fetchRoles(USER);
    expect(requests.map((r) => r.key)).toEqual([fill(templates.session[1], ids)]);
  });

  it("with the session's token and no Prefer header (the script sends none)", async () => {
    await Promise.all([prefetchHome(), prefetchLesson({ courseId: COURSE, lessonId: LESSON }), fetchRoles(USER)]);
    expect(requests.length).toBeGreaterThan(6);
    for (const r of requests) expect(r).toMatchObject({ auth: `Bearer ${TOKEN}`, prefer: null });
  });

  it("a school's login page, with the slug as the app encodes it", async () => {
    localStorage.clear();
    await fetchSchoolLogin('escola demo');
    expect(requests.map((r) => r.key)).toEqual([
      fill(templates.schoolLogin, { slug: encodeURIComponent('escola demo') }),
    ]);
  });

  it('each page by its path: a lesson is not taken for its course', () => {
    expect(route('/')!.modules).toContain('app/routes/home.tsx');
    expect(route(`/course/${COURSE}/lesson/${LESSON}`)!.modules).toEqual(['app/routes/lesson.tsx']);
    expect(route(`/course/${COURSE}/`)!.modules).toContain('app/routes/course.tsx');
    // Only ids reach a URL: anything else in their place asks for nothing.
    expect(route('/course/x%26select%3D*/lesson/y')).toBeUndefined();
  });
});
