// Issue 20: no admin list stops silently. A school with 2,000 courses, 5,000 materials and 300
// announcements pages through every one of them with the SPA's own list functions (the page and
// search the URL carries), as its admin; the staff of another school sees none of them.
import { beforeAll, describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { SCHOOL, USER } from '../rls/seed.ts';
import { fetchAdminCourses, fetchCourseOptions } from '../../../src/features/courses/api/admin-queries.ts';
import { fetchSchoolMaterials } from '../../../src/features/materials/api/queries.ts';
import { fetchSchoolAnnouncements } from '../../../src/features/announcements/api/admin-queries.ts';
import type { Page } from '../../../src/platform/db.ts';

const backend = useBackend();
const rival = backend.signedIn('adminRival');
const demo = backend.signedIn('adminDemo');

const COURSES = 2000;
const MATERIALS = 5000;
const ANNOUNCEMENTS = 300;

beforeAll(async () => {
  // Seeded in SQL, in the rival school (one course of the seed already there).
  await backend.server.ctx.engine.exec(`
    insert into public.courses (school_id, instructor_id, title, slug, status, created_at)
      select '${SCHOOL.rival}', '${USER.adminRival}', 'Curso em escala ' || i, 'curso-escala-' || i, 'DRAFT', now() - i * interval '1 minute'
      from generate_series(1, ${COURSES}) i;
    insert into public.materials (course_id, title, type, url, created_at)
      select c.id, 'Material ' || i, 'LINK', 'https://exemplo.com/m/' || i, now() - i * interval '1 second'
      from generate_series(1, ${MATERIALS}) i
      join lateral (select id from public.courses where slug = 'curso-escala-' || (1 + i % ${COURSES})) c on true;
    insert into public.announcements (school_id, instructor_id, title, body, video_type, is_active, priority, created_at)
      select '${SCHOOL.rival}', '${USER.adminRival}', 'Anúncio ' || i, '<p>Aviso</p>', 'youtube', false, i % 3, now() - i * interval '1 hour'
      from generate_series(1, ${ANNOUNCEMENTS}) i;
  `);
}, 180_000);

async function count(sql: string): Promise<number> {
  const { rows } = await backend.server.ctx.engine.query<{ n: string }>(sql);
  return Number(rows[0]!.n);
}

/** Every row of a list, page by page as the screen asks for them (?pagina=1, 2, ...). */
async function pageThrough<T extends { id: string }>(read: (page: number) => Promise<Page<T>>) {
  const first = await read(0);
  const ids = first.rows.map((r) => r.id);
  const pages = Math.ceil(first.total / first.rows.length);
  for (let page = 1; page < pages; page++) ids.push(...(await read(page)).rows.map((r) => r.id));
  return { ids, total: first.total, pages };
}

describe('admin lists of a large school', () => {
  it('courses: every one of 2,001, each once, over 84 pages', async () => {
    const expected = await count(`select count(*) as n from public.courses where school_id = '${SCHOOL.rival}'`);
    expect(expected).toBe(COURSES + 1);
    const { ids, total, pages } = await pageThrough((page) => fetchAdminCourses(rival, SCHOOL.rival, { page }));
    expect(total).toBe(expected);
    expect(pages).toBe(Math.ceil(expected / 24));
    expect(new Set(ids).size).toBe(expected);
    expect(ids.length).toBe(expected);
    // The pickers of other screens (reports, enrollments, students, materials) offer every course.
    expect((await fetchCourseOptions(rival, SCHOOL.rival)).length).toBe(expected);
  });

  it('courses: the search runs on the server over all of them', async () => {
    const found = await fetchAdminCourses(rival, SCHOOL.rival, { search: 'escala 199' });
    // 199 and 1990-1999.
    expect(found.total).toBe(11);
    expect(found.rows.every((c) => c.title.includes('escala 199'))).toBe(true);
  });

  // 209 pages, each with its exact count: ~20 s on PGlite on a busy 2-core machine, so more than the default 30 s.
  it('materials: every one of 5,000, each once', { timeout: 90_000 }, async () => {
    const expected = await count(
      `select count(*) as n from public.materials m join public.courses c on c.id = m.course_id where c.school_id = '${SCHOOL.rival}'`,
    );
    expect(expected).toBeGreaterThanOrEqual(MATERIALS);
    const { ids, total } = await pageThrough((page) => fetchSchoolMaterials(rival, SCHOOL.rival, { page }));
    expect(total).toBe(expected);
    expect(new Set(ids).size).toBe(expected);
  });

  it('announcements: every one of 300, each once', async () => {
    const expected = await count(`select count(*) as n from public.announcements where school_id = '${SCHOOL.rival}'`);
    expect(expected).toBeGreaterThanOrEqual(ANNOUNCEMENTS);
    const { ids, total } = await pageThrough((page) => fetchSchoolAnnouncements(rival, SCHOOL.rival, { page }));
    expect(total).toBe(expected);
    expect(new Set(ids).size).toBe(expected);
  });

  it('the staff of another school pages through none of them', async () => {
    expect(await fetchAdminCourses(demo, SCHOOL.rival)).toEqual({ rows: [], total: 0 });
    expect(await fetchSchoolMaterials(demo, SCHOOL.rival)).toEqual({ rows: [], total: 0 });
    expect(await fetchSchoolAnnouncements(demo, SCHOOL.rival)).toEqual({ rows: [], total: 0 });
  });
});
