// Issue 9, course content: the one-request reorder is atomic and refused to anyone but the course's
// staff; another school's staff see and change no module, lesson, material or announcement.
import { describe, expect, it } from 'vitest';
import { useBackend } from '../harness.ts';
import { ANNOUNCEMENT, COURSE, LESSON, MATERIAL, MODULE } from '../rls/seed.ts';
import { fetchCourseContent, reorderCourseContent } from '../../../src/features/course-content/api/queries.ts';
import { fetchSchoolMaterials } from '../../../src/features/materials/api/queries.ts';
import { SCHOOL } from '../rls/seed.ts';

const backend = useBackend();
const service = backend.service();
const admin = backend.signedIn('adminDemo');
const rival = backend.signedIn('adminRival');
const aluno = backend.signedIn('aluno');

async function outline(courseId: string) {
  const { modules } = await fetchCourseContent(service, courseId);
  return modules.map((m) => ({ id: m.id, lessons: m.lessons.map((l) => l.id) }));
}

describe('reorder_course_content', () => {
  it('moves modules and lessons (across modules) in one call', async () => {
    const before = await outline(COURSE.excel);
    expect(before.length).toBe(3);
    const [m1, m2, m3] = before;
    // Module 3 first; the first lesson of module 1 moves to the end of module 2.
    const next = [m3!, { id: m1!.id, lessons: m1!.lessons.slice(1) }, { id: m2!.id, lessons: [...m2!.lessons, m1!.lessons[0]!] }];
    await reorderCourseContent(admin, COURSE.excel, next);
    expect(await outline(COURSE.excel)).toEqual(next);
    const moved = (await service.from('lessons').select('module_id, order_index, course_id').eq('id', m1!.lessons[0]!).single()).data!;
    expect(moved).toEqual({ module_id: m2!.id, order_index: m2!.lessons.length, course_id: COURSE.excel });
    await reorderCourseContent(admin, COURSE.excel, before);
    expect(await outline(COURSE.excel)).toEqual(before);
  });

  it('refuses an incomplete or foreign outline and changes nothing', async () => {
    const before = await outline(COURSE.excel);
    // A module missing.
    await expect(reorderCourseContent(admin, COURSE.excel, before.slice(1))).rejects.toMatchObject({ code: '22023' });
    // A lesson of another course of the same school.
    const withForeign = before.map((m, i) => (i === 0 ? { ...m, lessons: [...m.lessons, LESSON.marketingPaid] } : m));
    await expect(reorderCourseContent(admin, COURSE.excel, withForeign)).rejects.toMatchObject({ code: '22023' });
    // A module of another course.
    await expect(reorderCourseContent(admin, COURSE.excel, [...before, { id: MODULE.marketing1, lessons: [] }])).rejects.toMatchObject({ code: '22023' });
    expect(await outline(COURSE.excel)).toEqual(before);
  });

  it("is refused to another school's staff and to students", async () => {
    const before = await outline(COURSE.excel);
    const reversed = before.slice().reverse();
    await expect(reorderCourseContent(rival, COURSE.excel, reversed)).rejects.toMatchObject({ code: '42501' });
    await expect(reorderCourseContent(aluno, COURSE.excel, reversed)).rejects.toMatchObject({ code: '42501' });
    expect(await outline(COURSE.excel)).toEqual(before);
  });
});

describe('materials screen', () => {
  it("lists the school's materials with their course title, and nothing of another school", async () => {
    const { rows: demo, total } = await fetchSchoolMaterials(admin, SCHOOL.demo, { pageSize: 1000 });
    const expected = (await service.from('materials').select('id, courses!inner(school_id)').eq('courses.school_id', SCHOOL.demo)).data!;
    expect(demo.map((m) => m.id).sort()).toEqual(expected.map((m) => m.id).sort());
    expect(total).toBe(expected.length);
    expect(demo.length).toBeGreaterThan(0);
    expect(demo.every((m) => m.course?.school_id === SCHOOL.demo && !!m.course.title)).toBe(true);
    expect(await fetchSchoolMaterials(rival, SCHOOL.demo)).toEqual({ rows: [], total: 0 });
  });
});

describe('another school', () => {
  it('sees no module, lesson, material or announcement of Escola Demo', async () => {
    const content = await fetchCourseContent(rival, COURSE.excel);
    expect(content.course).toBeNull();
    expect(content.modules).toEqual([]);
    expect((await rival.from('materials').select('id').eq('id', MATERIAL.excelPdf)).data).toEqual([]);
    expect((await rival.from('announcements').select('id').eq('id', ANNOUNCEMENT.demoHigh)).data).toEqual([]);
  });

  it('cannot change or delete them with forged requests', async () => {
    const snapshot = async () => ({
      module: (await service.from('modules').select('*').eq('id', MODULE.excel1).single()).data,
      lesson: (await service.from('lessons').select('*').eq('id', LESSON.excelText).single()).data,
      material: (await service.from('materials').select('*').eq('id', MATERIAL.excelPdf).single()).data,
      announcement: (await service.from('announcements').select('*').eq('id', ANNOUNCEMENT.demoHigh).single()).data,
    });
    const before = await snapshot();
    await rival.from('modules').update({ title: 'X' }).eq('id', MODULE.excel1);
    await rival.from('lessons').update({ title: 'X', module_id: MODULE.rival1 }).eq('id', LESSON.excelText);
    await rival.from('lesson_contents').update({ content: 'X' }).eq('lesson_id', LESSON.excelText);
    await rival.from('materials').update({ title: 'X' }).eq('id', MATERIAL.excelPdf);
    await rival.from('announcements').update({ title: 'X', is_active: false }).eq('id', ANNOUNCEMENT.demoHigh);
    await rival.from('materials').delete().eq('id', MATERIAL.excelPdf);
    await rival.from('announcements').delete().eq('id', ANNOUNCEMENT.demoHigh);
    await rival.from('lessons').delete().eq('id', LESSON.excelText);
    await rival.from('modules').delete().eq('id', MODULE.excel1);
    // Moving one of its own lessons into a module of the other school is refused too.
    const move = await rival.from('lessons').update({ module_id: MODULE.excel1 }).eq('course_id', COURSE.rival).select('id');
    expect(move.error ?? (move.data ?? []).length === 0).toBeTruthy();
    expect(await snapshot()).toEqual(before);
    expect((await service.from('lessons').select('id').eq('module_id', MODULE.excel1)).data!.every((l) => l.id.startsWith('e0000000'))).toBe(true);
  });
});
