// The pages a first visit prepares before the app's code has run (docs/first-visit.md): the HTML's
// inline script (src/platform/first-visit/vite-plugin.ts) fills these templates in from the URL and the
// stored session and starts them while the entry chunk downloads; the app's own requests then take
// their answers instead of asking again. Each page is keyed by its path in ./router.tsx, as its loader
// in ./route-prefetch.ts is, and each template is, byte for byte, a request that loader (or the
// session) makes first: first-visit-pages.test.ts runs them and compares. vite.config.ts reads this
// file, so it imports only import-free files, by relative path with the extension (Vite loads its
// config without the `@/` alias).
import { schoolLoginHeaders, schoolLoginUrlPrefix } from '../features/auth/api/school-login-url.ts';
import { CATALOG_AVAILABLE_PAGE, COURSE_DETAIL_SELECT } from '../features/courses/api/course-urls.ts';
import {
  LESSON_BUNDLE_SELECT,
  POSTER_PATH_PATTERN,
  POSTER_SIZES,
  POSTER_WIDTHS,
  STORAGE_PATH_PATTERN,
  VIDEO_URL_TTL_SEC,
} from '../features/lessons/api/lesson-urls.ts';
import { profileUrlPrefix, rolesUrlPrefix } from '../platform/session-urls.ts';
import type { FirstVisitPages, RequestTemplate } from '../platform/first-visit/vite-plugin.ts';

const UUID = '^([0-9a-fA-F-]{36})$';

export function firstVisitPages(apiUrl: string, anonKey: string) {
  const api = apiUrl.replace(/\/+$/, '');
  const rpc = (name: string, args: Record<string, unknown>): RequestTemplate => [`${api}/rest/v1/rpc/${name}`, JSON.stringify(args)];
  const rest = (table: string, select: string, filters: string): RequestTemplate => [
    `${api}/rest/v1/${table}?${new URLSearchParams({ select: select.replaceAll(' ', '') })}&${filters}`,
    '',
  ];
  const courseDetail = (course: string) => rest('courses', COURSE_DETAIL_SELECT, `id=eq.${course}&enrollments.user_id=eq.{user}&progress.user_id=eq.{user}`);
  return {
    /** Every signed-in page's: the profile (with its school) first, then the roles. */
    session: [
      [profileUrlPrefix(api) + '{user}', ''],
      [rolesUrlPrefix(api) + '{user}', ''],
    ],
    // The client every signed-in page needs first, and the loaders below.
    sessionModules: ['platform/supabase.ts', 'app/route-prefetch.ts'],
    /** The signed-in pages a visit most often opens on, by their path in ./router.tsx. */
    pages: {
      '/': {
        modules: ['app/layout/member-layout.tsx', 'app/routes/home.tsx'],
        requests: [rpc('student_catalog', { p_school_id: '{school}', p_available_limit: CATALOG_AVAILABLE_PAGE }), rpc('my_quiz_states', { p_course_id: null })],
        values: { school: [-1, '0.school_id', UUID] },
      },
      '/course/:courseId/lesson/:lessonId': {
        // With the edge-function client, which the functions stand-in loads on the first call: the
        // video's signing waits for it, and with it the page's largest paint.
        modules: ['app/routes/lesson.tsx', '@supabase/functions-js/dist/module/FunctionsClient.js'],
        // The lesson first: its answer names the poster, the page's largest paint (issue 38), and the
        // API answers a connection's requests about in the order they come.
        requests: [
          rest('lessons', LESSON_BUNDLE_SELECT, 'id=eq.{2}&lesson_ratings.user_id=eq.{user}&materials.order=created_at.desc'),
          courseDetail('{1}'),
          rpc('quiz_for_student', { p_lesson_id: '{2}' }),
          rpc('my_quiz_states', { p_course_id: '{1}' }),
          // The lesson's uploaded video, signed as soon as the lesson's answer names it: the page's
          // largest paint is its first frame.
          [`${api}/functions/v1/sign-lesson-file`, JSON.stringify({ bucket: 'lesson-videos', path: '{video}', expiresIn: VIDEO_URL_TTL_SEC })],
        ],
        // What lessonBundleQuery signs: an uploaded file's Storage path, not a YouTube/Vimeo URL nor the
        // video host's 'video-host' (played through video-playback, whose start the player asks itself).
        values: {
          video: [0, '0.lesson_contents.video_url', STORAGE_PATH_PATTERN],
          poster: [0, '0.lesson_contents.video_poster', POSTER_PATH_PATTERN],
        },
        // The uploaded video's poster, the page's largest paint until the video's first frame (issue 38),
        // as soon as the lesson's answer names it: the srcset and sizes of ./video-poster.tsx's <img>.
        // Painted where a lesson's video was laid out before (any lesson's, at this width), before the code.
        images: [[POSTER_WIDTHS.map((w) => `${api}/storage/v1/render/image/public/course-thumbnails/{poster}?width=${w} ${w}w`).join(', '), POSTER_SIZES, 'video-box']],
      },
      '/course/:courseId': {
        modules: ['app/layout/member-layout.tsx', 'app/routes/course.tsx'],
        requests: [courseDetail('{1}'), rpc('my_quiz_states', { p_course_id: '{1}' })],
      },
    },
    /** A school's login page, signed out (/{slug}). */
    loginModule: 'app/routes/auth.tsx',
    schoolLogin: [schoolLoginUrlPrefix(api) + '{slug}', ''],
    // ./router.tsx's one-segment routes other than /:slug.
    reservedPaths: ['auth', 'profile', 'checkout', 'admin', 'acesso', 'descadastrar'],
    headers: schoolLoginHeaders(anonKey),
  } satisfies FirstVisitPages;
}

/** The paths of the pages above: ./route-prefetch.ts has a loader for each. */
export type FirstVisitPath = keyof ReturnType<typeof firstVisitPages>['pages'];
