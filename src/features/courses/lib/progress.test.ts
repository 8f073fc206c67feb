import { describe, expect, it } from 'vitest';
import type { CatalogCourse, LastWatched } from '../api/queries';
import { buildHome, courseProgress, enrollmentAccess, firstPreviewLesson, nextLessonToStudy, overallProgress, percentOf, toCourseCard } from './progress';

const now = new Date('2026-06-01T12:00:00Z');
// As the progress rows of the course page come.
const row = (lesson_id: string, completed: boolean, updated_at = '2026-05-01T00:00:00Z', last_position_sec = 0) => ({
  lesson_id,
  completed_at: completed ? '2026-05-01T00:00:00Z' : null,
  last_position_sec,
  updated_at,
});
const lesson = (id: string, is_preview = false) => ({ id, order_index: 0, is_preview });
const outline = (id: string) => [
  { id: `${id}-m1`, order_index: 0, lessons: [lesson(`${id}-1`), lesson(`${id}-2`, true)] },
  { id: `${id}-m2`, order_index: 1, lessons: [lesson(`${id}-3`), lesson(`${id}-4`), lesson(`${id}-5`), lesson(`${id}-6`)] },
];
// As public.student_catalog sums a course up: 6 lessons, the second a preview.
const watched = (lesson: string, completed: boolean, updated_at: string, last_position_sec: number): LastWatched => ({
  lesson_id: lesson,
  title: `Aula ${lesson}`,
  duration_sec: 600,
  last_position_sec,
  completed_at: completed ? updated_at : null,
  updated_at,
});

function course(id: string, overrides: Partial<CatalogCourse> = {}): CatalogCourse {
  return {
    id,
    slug: `curso-${id}`,
    title: `Curso ${id}`,
    description: null,
    thumbnail_url: null,
    thumbnail_position: '50% 50%',
    purchase_url: null,
    created_at: '2026-01-01T00:00:00Z',
    certificate_enabled: true,
    enrollment: null,
    lesson_count: 6,
    completed_count: 0,
    first_preview_lesson_id: `${id}-2`,
    last_watched: null,
    turma_starts_on: null,
    ...overrides,
  };
}

describe('courseProgress', () => {
  it('is completed lessons of the course over its lessons', () => {
    expect(courseProgress(['a', 'b', 'c', 'd', 'e', 'f'], [row('a', true), row('b', true), row('c', false)])).toEqual({ completed: 2, total: 6, percent: 33 });
  });
  it('ignores progress of lessons that are no longer in the course, and counts a lesson once', () => {
    expect(courseProgress(['a', 'b'], [row('a', true), row('a', true), row('gone', true)])).toEqual({ completed: 1, total: 2, percent: 50 });
  });
  it('is 0% for a course without lessons', () => {
    expect(courseProgress([], [row('a', true)])).toEqual({ completed: 0, total: 0, percent: 0 });
  });
  it('rounds and never passes 100', () => {
    expect(percentOf(1, 3)).toBe(33);
    expect(percentOf(2, 3)).toBe(67);
    expect(percentOf(5, 4)).toBe(100);
  });
  it('sums courses for the overall figure (not an average of percents)', () => {
    expect(overallProgress([{ completed: 1, total: 2, percent: 50 }, { completed: 0, total: 8, percent: 0 }])).toEqual({ completed: 1, total: 10, percent: 10 });
  });
});

describe('enrollmentAccess', () => {
  it('tells active, paused, expired and none apart', () => {
    expect(enrollmentAccess(null, now)).toBe('none');
    expect(enrollmentAccess({ status: 'ACTIVE', expires_at: null }, now)).toBe('active');
    expect(enrollmentAccess({ status: 'ACTIVE', expires_at: '2026-07-01T00:00:00Z' }, now)).toBe('active');
    expect(enrollmentAccess({ status: 'ACTIVE', expires_at: '2026-05-31T00:00:00Z' }, now)).toBe('expired');
    expect(enrollmentAccess({ status: 'PAUSED', expires_at: null }, now)).toBe('paused');
  });
});

describe('course cards', () => {
  it('locks a course without an enrollment and offers purchase and the first preview lesson', () => {
    const card = toCourseCard(course('x', { purchase_url: 'https://pay.example/x' }), { isAdmin: false, now });
    expect(card).toMatchObject({ enrolled: false, hasAccess: false, purchaseHref: 'https://pay.example/x', purchaseExternal: true, firstPreviewLessonId: 'x-2' });
    expect(card.progress).toEqual({ completed: 0, total: 6, percent: 0 });
  });
  it('sends to the checkout route without a purchase URL', () => {
    expect(toCourseCard(course('y'), { isAdmin: false, now })).toMatchObject({ purchaseHref: '/checkout/curso-y', purchaseExternal: false });
  });
  it('opens every course to an admin', () => {
    expect(toCourseCard(course('x'), { isAdmin: true, now }).hasAccess).toBe(true);
  });
  it('keeps paused and expired enrollments locked', () => {
    expect(toCourseCard(course('x', { enrollment: { status: 'PAUSED', expires_at: null } }), { isAdmin: false, now })).toMatchObject({ enrolled: true, hasAccess: false, access: 'paused' });
    expect(toCourseCard(course('x', { enrollment: { status: 'ACTIVE', expires_at: '2026-01-01T00:00:00Z' } }), { isAdmin: false, now })).toMatchObject({ hasAccess: false, access: 'expired' });
  });
  it("says when the student's turma starts, until 00:00 of that day in São Paulo", () => {
    const inTurma = course('t', { enrollment: { status: 'ACTIVE', expires_at: null }, turma_starts_on: '2026-07-10' });
    expect(toCourseCard(inTurma, { isAdmin: false, now: new Date('2026-07-10T02:59:00Z') }).turmaStart).toBe('Sua turma começa em 10/07');
    expect(toCourseCard(inTurma, { isAdmin: false, now: new Date('2026-07-10T03:00:00Z') }).turmaStart).toBeNull();
    expect(toCourseCard(course('u', { enrollment: { status: 'ACTIVE', expires_at: null } }), { isAdmin: false, now }).turmaStart).toBeNull();
  });
});

describe('buildHome', () => {
  const mine = course('a', {
    enrollment: { status: 'ACTIVE', expires_at: null },
    completed_count: 2,
    last_watched: watched('a-3', false, '2026-05-03T00:00:00Z', 95),
  });
  const paused = course('p', { enrollment: { status: 'PAUSED', expires_at: null }, last_watched: watched('p-1', false, '2026-05-09T00:00:00Z', 40) });
  const other = course('b');

  it('splits enrolled and available courses and sums progress over the courses the student can study', () => {
    const home = buildHome([mine, paused, other], { isAdmin: false, now });
    expect(home.mine.map((c) => c.course.id)).toEqual(['a', 'p']);
    expect(home.available.map((c) => c.course.id)).toEqual(['b']);
    expect(home.overall).toEqual({ completed: 2, total: 6, percent: 33 });
  });
  it('continues the most recently watched lesson of an open course, at its position', () => {
    const home = buildHome([mine, paused, other], { isAdmin: false, now });
    // The paused course's lesson is newer but the student cannot open it.
    expect(home.continueWatching).toMatchObject({ courseId: 'a', lessonId: 'a-3', positionSec: 95, lessonTitle: 'Aula a-3', durationSec: 600 });
  });
  it('prefers the lesson still in progress when two courses were watched at the same time', () => {
    const same = '2026-05-05T00:00:00Z';
    const done = course('d', { enrollment: { status: 'ACTIVE', expires_at: null }, last_watched: watched('d-6', true, same, 600) });
    const going = course('t', { enrollment: { status: 'ACTIVE', expires_at: null }, last_watched: watched('t-3', false, same, 3) });
    expect(buildHome([done, going], { isAdmin: false, now }).continueWatching).toMatchObject({ lessonId: 't-3', positionSec: 3 });
    expect(buildHome([going, done], { isAdmin: false, now }).continueWatching).toMatchObject({ lessonId: 't-3', positionSec: 3 });
  });
  it('has nothing to continue without progress', () => {
    expect(buildHome([other], { isAdmin: false, now }).continueWatching).toBeNull();
  });
});

describe('outline helpers', () => {
  const modules = outline('c');
  it('finds the first preview lesson across modules', () => {
    expect(firstPreviewLesson(modules)?.id).toBe('c-2');
    expect(firstPreviewLesson([{ lessons: [lesson('z')] }])).toBeNull();
  });
  it('continues the course at the first lesson not completed', () => {
    expect(nextLessonToStudy(modules, [row('c-1', true), row('c-2', true)])?.id).toBe('c-3');
    expect(nextLessonToStudy(modules, [])?.id).toBe('c-1');
    expect(nextLessonToStudy(modules, modules.flatMap((m) => m.lessons.map((l) => row(l.id, true))))?.id).toBe('c-1');
  });
});
