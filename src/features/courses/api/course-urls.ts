// What the student pages ask the database for, without imports: the app (./queries.ts through
// postgrest-js) and the HTML's inline script (src/app/first-visit-pages.ts, read by vite.config.ts,
// which starts the same requests before any JavaScript has loaded) build them from here.

/** Courses without enrollment the home page shows at first; the rest come on demand. */
export const CATALOG_AVAILABLE_PAGE = 24;

export const PROGRESS_COLUMNS = 'lesson_id, completed_at, last_position_sec, updated_at';

export const COURSE_DETAIL_SELECT =
  'id, school_id, slug, title, description, thumbnail_url, thumbnail_position, banner_url, banner_position, purchase_url, price, status, certificate_enabled, ' +
  'modules(id, title, description, thumbnail_url, order_index, release_mode, release_after_days, release_on, ' +
  'lessons(id, module_id, title, order_index, duration_sec, is_preview, video_type)), ' +
  // The student's turma (issue 40): its start and calendar date the modules (src/concepts/release.ts). A
  // primary-key look-up only inside a turma; a null turma_id reads nothing.
  'enrollments(status, expires_at, created_at, turma:turmas(name, starts_on, ends_on, turma_module_dates(module_id, opens_on))), ' +
  `progress(${PROGRESS_COLUMNS})`;
