// What the lesson page asks for first, without imports: the app (./queries.ts through postgrest-js,
// ./hooks.ts) and the HTML's inline script (src/app/first-visit-pages.ts, read by vite.config.ts,
// which starts the same requests before any JavaScript has loaded) build them from here.

export const LESSON_BUNDLE_SELECT =
  'id, course_id, lesson_contents(content, video_url, video_poster), ' +
  'materials(id, title, type, url, file_path, created_at), ' +
  'lesson_ratings(rating)';

/** Lifetime of a signed video URL; the cached one is replaced well before it ends. */
export const VIDEO_URL_TTL_SEC = 15 * 60;

/** lesson_contents.video_url of a lesson whose video is at the video host (issue 39): played through
 * video-playback, never signed as a Storage path. */
export const HOSTED_VIDEO = 'video-host';

/** Whether a lesson's video_url is an uploaded file's Storage path (signed by sign-lesson-file): not a
 * YouTube/Vimeo URL, not the video host. */
export const isStoragePath = (videoUrl: string | null | undefined): videoUrl is string =>
  !!videoUrl && videoUrl !== HOSTED_VIDEO && !/^https?:\/\//i.test(videoUrl);

/** The same test as a pattern, for the first visit's inline script (src/app/first-visit-pages.ts). */
export const STORAGE_PATH_PATTERN = `^(?!https?://|${HOSTED_VIDEO}$).`;

/** lesson_contents.video_poster: an object path in course-thumbnails ({school_id}/{name}.jpg), as the
 * database's check says; the first visit's inline script preloads only what matches. */
export const POSTER_PATH_PATTERN = '^[0-9a-f-]{36}/[A-Za-z0-9._-]+[.]jpg$';

/** The poster's widths and the CSS width it is painted at (the lesson page's video: full width on a phone,
 * beside the 22rem sidebar from 1024 px, in a 1600 px page). The <img> and the inline script's preload
 * must say exactly the same, or the browser would fetch it twice. */
export const POSTER_WIDTHS: readonly number[] = [320, 480, 640, 800, 960, 1280];
export const POSTER_SIZES = '(min-width: 1600px) 1192px, (min-width: 1024px) calc(100vw - 408px), (min-width: 640px) calc(100vw - 32px), 100vw';
