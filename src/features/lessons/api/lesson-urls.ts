// What the lesson page asks for first, without imports: the app (./queries.ts through postgrest-js,
// ./hooks.ts) and the HTML's inline script (src/app/first-visit-pages.ts, read by vite.config.ts,
// which starts the same requests before any JavaScript has loaded) build them from here.

export const LESSON_BUNDLE_SELECT =
  'id, course_id, lesson_contents(content, video_url), ' +
  'materials(id, title, type, url, file_path, created_at), ' +
  'lesson_ratings(rating)';

/** Lifetime of a signed video URL; the cached one is replaced well before it ends. */
export const VIDEO_URL_TTL_SEC = 15 * 60;
