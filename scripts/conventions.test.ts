// Issue 20's "one way to do each thing", held: each fact the review found stays gone. The figures
// come from scripts/conventions.ts (`npm run conventions -- --list` shows each finding).
import { describe, expect, it } from 'vitest';
import { firstVisitDeepImports, longRouteFiles, measureConventions, ROUTE_FILE_MAX_LINES, roomImports } from './conventions';

const report = measureConventions();
const where = (found: { file: string; line?: number; text?: string }[]) =>
  found.map((f) => `${f.file}${f.line ? `:${f.line} ${f.text}` : ''}`);

describe('one way to do each thing (issue 20)', () => {
  it('components reach the database only through their feature’s hooks', () => {
    expect(where(report.componentsReachingTheClient)).toEqual([]);
  });

  it('every supabase-js client is typed by the generated Database', () => {
    expect(where(report.untypedClients)).toEqual([]);
  });

  it('at most two `as unknown as`, each with its reason', () => {
    expect(report.asUnknownAs.length, where(report.asUnknownAs).join('\n')).toBeLessThanOrEqual(2);
    for (const cast of report.asUnknownAs) expect(cast.reason, `${cast.file}:${cast.line} says why`).toBeTruthy();
  });

  it('no list is cut by a silent .limit() (a bounded read says why with `bounded:`)', () => {
    expect(where(report.silentLimits)).toEqual([]);
  });

  it('mutation failures go through the one error path (query-client.ts → describeError)', () => {
    expect(report.errorToasts.length, where(report.errorToasts).join('\n')).toBeLessThanOrEqual(5);
  });

  it('query keys are built on the registry (src/platform/query-keys.ts), never literal arrays', () => {
    expect(where(report.literalKeys)).toEqual([]);
  });

  it('every form is a react-hook-form form (or says why not: the login form’s budget, the comment box)', () => {
    expect(report.formsWithoutHookForm).toEqual([]);
  });

  it('no feature component over 300 lines, no local-supabase file over 350', () => {
    expect(report.oversizedFiles).toEqual([]);
  });
});

describe('the rooms, thin routes and one first-visit module (issue 45)', () => {
  it('each room imports only the rooms after it (app → features → concepts → components → platform → utils), no feature another', () => {
    expect(where(report.roomImports)).toEqual([]);
  });

  it(`a route file loads and composes: none over ${ROUTE_FILE_MAX_LINES} lines of code (the screen lives in its feature)`, () => {
    expect(report.longRouteFiles).toEqual([]);
  });

  it('the first visit is reached through its doors only (index.ts for the app, vite-plugin.ts for the build)', () => {
    expect(where(report.firstVisitDeepImports)).toEqual([]);
  });

  // A 0 above means something only if the counter can count: each one finds a planted breach.
  it('the room counter finds an upward import and a feature importing another, by alias and by relative path', () => {
    const planted = [
      { file: 'src/concepts/enrollment.ts', text: "import { courseKeys } from '@/features/courses/api/hooks';" },
      { file: 'src/features/lessons/components/x.tsx', text: "import { lessonIdsOf } from '../../courses/lib/progress';" },
      { file: 'src/platform/db.ts', text: "const m = await import('@/components/ui/button');" },
      { file: 'src/utils/format.ts', text: "export { supabase } from '../platform/supabase';" },
    ];
    expect(roomImports(planted).map((f) => f.file)).toEqual(planted.map((f) => f.file));
    const allowed = [
      { file: 'src/app/routes/home.tsx', text: "import { HomePage } from '@/features/courses/components/home-page';" },
      { file: 'src/features/lessons/components/x.tsx', text: "import { useLessonBundle } from '../api/hooks';\nimport { cn } from '@/utils/cn';" },
      { file: 'src/concepts/bell.ts', text: "import type { Database } from '@/types/database';\nimport { z } from 'zod';" },
    ];
    expect(roomImports(allowed)).toEqual([]);
  });

  it('the route counter finds a route file one line of code over the limit, and leaves imports, comments, tests and other folders alone', () => {
    const lines = (n: number) => 'x\n'.repeat(n);
    expect(longRouteFiles([{ file: 'src/app/routes/lesson.tsx', text: lines(ROUTE_FILE_MAX_LINES + 1) }]).map((f) => f.lines)).toEqual([ROUTE_FILE_MAX_LINES + 1]);
    expect(
      longRouteFiles([
        { file: 'src/app/routes/admin/plans.tsx', text: lines(ROUTE_FILE_MAX_LINES) },
        { file: 'src/app/routes/lesson.test.tsx', text: lines(200) },
        { file: 'src/features/lessons/components/lesson-page.tsx', text: lines(200) },
        // Imports, comments and blank lines are not code: a route composing many features stays thin.
        { file: 'src/app/routes/admin/settings.tsx', text: `// why\n/* more\n why */\n${"import {\n  A,\n} from '@/x';\n".repeat(20)}\n${lines(ROUTE_FILE_MAX_LINES)}` },
      ]),
    ).toEqual([]);
  });

  it('the first-visit counter finds an import of one of its files from outside the folder', () => {
    expect(firstVisitDeepImports([{ file: 'src/app/root-layout.tsx', text: "import { removeLcpShell } from '@/platform/first-visit/lcp-shell';" }])).toHaveLength(1);
    expect(firstVisitDeepImports([{ file: 'src/platform/session.ts', text: "import { x } from './first-visit/stand-ins/storage';" }])).toHaveLength(1);
    expect(
      firstVisitDeepImports([
        { file: 'src/app/root-layout.tsx', text: "import { useDeferredModule } from '@/platform/first-visit';" },
        { file: 'vite.config.ts', text: "import { firstVisitPlugins } from './src/platform/first-visit/vite-plugin.ts';" },
        { file: 'src/platform/first-visit/index.ts', text: "export { removeLcpShell } from './lcp-shell';" },
      ]),
    ).toEqual([]);
  });
});
