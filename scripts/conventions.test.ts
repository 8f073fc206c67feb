// Issue 20's "one way to do each thing", held: each fact the review found stays gone. The figures
// come from scripts/conventions.ts (`npm run conventions -- --list` shows each finding).
import { describe, expect, it } from 'vitest';
import { measureConventions } from './conventions';

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
