// @vitest-environment node
// docs/styles.md: the student's stylesheet leaves the admin area's files out, and nothing a student
// or public route renders goes with them; the admin stylesheet holds every utility.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkCssSplit, studentModules } from './css-split';

const ROOT = path.resolve(import.meta.dirname, '..');

describe('the two stylesheets (docs/styles.md)', () => {
  it('src/index.css reads the class names of every module the student and public routes load', async () => {
    const report = await checkCssSplit();
    expect(report.studentModulesOutsideMainCss).toEqual([]);
    // It does leave the admin area out, or there would be nothing to split.
    expect(report.leftOutOfMainCss).toEqual(expect.arrayContaining(['src/app/layout/admin-layout.tsx', 'src/app/routes/admin/dashboard.tsx', 'src/features/students/components/students-page.tsx']));
  });

  it('src/styles/admin.css reads every file src/index.css reads (so it decides as one stylesheet would)', async () => {
    expect((await checkCssSplit()).mainFilesOutsideAdminCss).toEqual([]);
  });

  it('the student graph is the routes of src/app/router.tsx without the admin area', () => {
    const modules = studentModules();
    for (const page of ['src/app/routes/auth.tsx', 'src/app/layout/member-layout.tsx', 'src/app/routes/lesson.tsx', 'src/app/routes/checkout.tsx', 'src/app/routes/certificate.tsx', 'src/app/routes/profile.tsx'])
      expect(modules).toContain(page);
    expect(modules.filter((m) => m.includes('/admin'))).toEqual([]);
  });

  it('catches a rule that leaves out a folder the lesson page renders', async () => {
    const css = `${readFileSync(path.join(ROOT, 'src/index.css'), 'utf8')}\n@source not './features/lessons';\n`;
    const report = await checkCssSplit(ROOT, css);
    expect(report.studentModulesOutsideMainCss).toContain('src/features/lessons/components/lesson-sidebar.tsx');
  });
});
