// What the lesson page asks the database for, without imports: the app (./queries.ts through
// postgrest-js) and the HTML's inline script (src/app/first-visit-requests.ts, read by vite.config.ts,
// which starts the same request before any JavaScript has loaded) build it from here.

export const LESSON_BUNDLE_SELECT =
  'id, course_id, lesson_contents(content, video_url), ' +
  'materials(id, title, type, url, file_path, created_at), ' +
  'lesson_ratings(rating)';
