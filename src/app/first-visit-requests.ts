// What a first visit asks the API for before the app's code has run: the HTML's inline script
// (scripts/vite/first-visit-preload.ts) fills these templates in from the URL and the stored session
// and starts them while the entry chunk downloads; the app's own requests then take their answers
// (src/platform/first-visit/answers.ts) instead of asking again. Each template is, byte for byte, a request the
// app makes first on that page (route-prefetch.ts's loaders and the session's): first-visit-requests
// .test.ts runs those and compares. vite.config.ts reads this file, so it imports only import-free
// files, by relative path with the extension (Vite loads its config without the `@/` alias).
import { schoolLoginUrlPrefix } from '../features/auth/api/school-login-url.ts';
import { CATALOG_AVAILABLE_PAGE, COURSE_DETAIL_SELECT } from '../features/courses/api/course-urls.ts';
import { LESSON_BUNDLE_SELECT, VIDEO_URL_TTL_SEC } from '../features/lessons/api/lesson-urls.ts';
import { profileUrlPrefix, rolesUrlPrefix } from '../platform/session-urls.ts';

/**
 * [url, body]: a GET when the body is '', else a POST of that JSON. Placeholders: {user} the account's
 * id, {1}, {2}… the path's groups, {slug} the login page's school, and the route's values.
 */
export type RequestTemplate = [url: string, body: string];

/** A value read from an earlier answer: which (-1 the profile, else the index of one of the route's
 * requests), where in its JSON (a path; a list stands for its first row), and the pattern it must
 * match (case-insensitive) to be used. A request that needs it starts when it is known, or never. */
export type AnswerValue = [from: number, path: string, pattern: string];

export interface FirstVisitRoute {
  /** The path, its groups the ids the requests need (uuids: nothing else reaches a URL). */
  pattern: string;
  /** The page's own modules (under src/, or a package's file under node_modules/ when it starts
   * with @), whose chunks are preloaded with the session's. */
  modules: string[];
  requests: RequestTemplate[];
  values?: Record<string, AnswerValue>;
}

const UUID = '([0-9a-fA-F-]{36})';
/** What lessonBundleQuery signs: an uploaded video's storage path (any non-empty text), not a
 * YouTube/Vimeo URL. */
const STORAGE_PATH = '^(?!https?://).';

export function firstVisitRequests(apiUrl: string) {
  const api = apiUrl.replace(/\/+$/, '');
  const rpc = (name: string, args: Record<string, unknown>): RequestTemplate => [
    `${api}/rest/v1/rpc/${name}`,
    JSON.stringify(args),
  ];
  const rest = (table: string, select: string, filters: string): RequestTemplate => [
    `${api}/rest/v1/${table}?${new URLSearchParams({ select: select.replaceAll(' ', '') })}&${filters}`,
    '',
  ];
  const courseDetail = (course: string) =>
    rest('courses', COURSE_DETAIL_SELECT, `id=eq.${course}&enrollments.user_id=eq.{user}&progress.user_id=eq.{user}`);
  return {
    /** Every signed-in page's: the profile (with its school) first, then the roles. */
    session: [
      [profileUrlPrefix(api) + '{user}', ''],
      [rolesUrlPrefix(api) + '{user}', ''],
    ] as RequestTemplate[],
    /** src/app/router.tsx's signed-in pages a visit most often opens on; the first match wins. */
    routes: [
      {
        pattern: '^/$',
        modules: ['app/layout/member-layout.tsx', 'app/routes/home.tsx'],
        requests: [
          rpc('student_catalog', { p_school_id: '{school}', p_available_limit: CATALOG_AVAILABLE_PAGE }),
          rpc('my_quiz_states', { p_course_id: null }),
        ],
        values: { school: [-1, '0.school_id', `^${UUID}$`] },
      },
      {
        pattern: `^/course/${UUID}/lesson/${UUID}/?$`,
        // With the edge-function client, which src/platform/first-visit/stand-ins/functions.ts loads on the first call: the
        // video's signing waits for it, and with it the page's largest paint.
        modules: ['app/routes/lesson.tsx', '@supabase/functions-js/dist/module/FunctionsClient.js'],
        requests: [
          courseDetail('{1}'),
          rest(
            'lessons',
            LESSON_BUNDLE_SELECT,
            'id=eq.{2}&lesson_ratings.user_id=eq.{user}&materials.order=created_at.desc',
          ),
          rpc('quiz_for_student', { p_lesson_id: '{2}' }),
          rpc('my_quiz_states', { p_course_id: '{1}' }),
          // The lesson's uploaded video, signed as soon as the lesson's answer names it: the page's
          // largest paint is its first frame.
          [
            `${api}/functions/v1/sign-lesson-file`,
            JSON.stringify({ bucket: 'lesson-videos', path: '{video}', expiresIn: VIDEO_URL_TTL_SEC }),
          ],
        ],
        values: { video: [1, '0.lesson_contents.video_url', STORAGE_PATH] },
      },
      {
        pattern: `^/course/${UUID}/?$`,
        modules: ['app/layout/member-layout.tsx', 'app/routes/course.tsx'],
        requests: [courseDetail('{1}'), rpc('my_quiz_states', { p_course_id: '{1}' })],
      },
    ] as FirstVisitRoute[],
    /** A school's login page, signed out (/{slug}). */
    schoolLogin: [schoolLoginUrlPrefix(api) + '{slug}', ''] as RequestTemplate,
  };
}
