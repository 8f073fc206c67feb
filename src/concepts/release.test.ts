import { describe, expect, it } from 'vitest';
import {
  availableOnText,
  enrollmentReleaseAt,
  lockedModuleText,
  moduleLocks,
  releaseAt,
  releaseRuleText,
  startOfDayInSaoPaulo,
  turmaStartAhead,
  turmaStartsText,
} from './release';

const immediate = { release_mode: 'IMMEDIATE', release_after_days: null, release_on: null };
const afterDays = (n: number) => ({ release_mode: 'AFTER_ENROLLMENT', release_after_days: n, release_on: null });
const onDate = (d: string) => ({ release_mode: 'ON_DATE', release_after_days: null, release_on: d });

describe('startOfDayInSaoPaulo', () => {
  it('is 03:00 UTC (São Paulo has no daylight saving since 2019)', () => {
    expect(startOfDayInSaoPaulo('2026-12-01')?.toISOString()).toBe('2026-12-01T03:00:00.000Z');
    expect(startOfDayInSaoPaulo('2027-07-15')?.toISOString()).toBe('2027-07-15T03:00:00.000Z');
  });
  it("follows the zone's rules on a past daylight-saving day (02:00 UTC in January 2018)", () => {
    expect(startOfDayInSaoPaulo('2018-01-10')?.toISOString()).toBe('2018-01-10T02:00:00.000Z');
  });
  it('refuses anything but aaaa-mm-dd', () => {
    expect(startOfDayInSaoPaulo('01/12/2026')).toBeNull();
    expect(startOfDayInSaoPaulo('')).toBeNull();
  });
});

describe('releaseAt', () => {
  it('is null for a module released at once', () => {
    expect(releaseAt(immediate, '2026-11-01T10:00:00Z')).toBeNull();
  });
  it('adds N × 24 h to the enrollment', () => {
    expect(releaseAt(afterDays(7), '2026-11-01T15:30:00Z')?.toISOString()).toBe('2026-11-08T15:30:00.000Z');
    expect(releaseAt(afterDays(1), '2026-11-01T15:30:00.123Z')?.toISOString()).toBe('2026-11-02T15:30:00.123Z');
  });
  it('cannot date an AFTER_ENROLLMENT module without an enrollment', () => {
    expect(releaseAt(afterDays(7), null)).toBeNull();
    expect(releaseAt(afterDays(7), 'não é data')).toBeNull();
  });
  it('opens an ON_DATE module at 00:00 in São Paulo, whatever the enrollment', () => {
    expect(releaseAt(onDate('2026-12-24'), null)?.toISOString()).toBe('2026-12-24T03:00:00.000Z');
  });
});

describe('moduleLocks', () => {
  const modules = [
    { id: 'a', ...immediate },
    { id: 'b', ...afterDays(7) },
    { id: 'c', ...onDate('2026-12-24') },
    { id: 'd', ...onDate('2026-11-20') },
  ];
  const now = new Date('2026-11-23T12:00:00Z');

  it('locks, for a student enrolled today, the 7-day module and the future date only', () => {
    const locks = moduleLocks(modules, { enrollment: { created_at: '2026-11-23T11:00:00Z' }, now });
    expect([...locks.keys()]).toEqual(['b', 'c']);
    expect(locks.get('b')?.toISOString()).toBe('2026-11-30T11:00:00.000Z');
  });
  it('opens the 7-day module for a student enrolled 8 days ago, and keeps it locked one hour short of 7 days', () => {
    expect([...moduleLocks(modules, { enrollment: { created_at: '2026-11-15T12:00:00Z' }, now }).keys()]).toEqual([
      'c',
    ]);
    expect([...moduleLocks(modules, { enrollment: { created_at: '2026-11-16T13:00:00Z' }, now }).keys()]).toEqual([
      'b',
      'c',
    ]);
  });
  it('opens at the exact release instant', () => {
    expect(moduleLocks(modules, { enrollment: { created_at: '2026-11-16T12:00:00Z' }, now }).has('b')).toBe(false);
  });
  it('locks nothing without an active enrollment (staff, or no access)', () => {
    expect(moduleLocks(modules, { enrollment: null, now }).size).toBe(0);
  });
});

describe('texts', () => {
  it("writes the student's date in São Paulo", () => {
    // 01:30 UTC on the 1st is still the 30th in São Paulo.
    expect(availableOnText(new Date('2026-12-01T01:30:00Z'))).toBe('Disponível em 30/11/2026');
    expect(availableOnText(startOfDayInSaoPaulo('2026-12-24')!)).toBe('Disponível em 24/12/2026');
  });
  it("writes the editor's badge", () => {
    expect(releaseRuleText(afterDays(7))).toBe('Libera 7 dias após a matrícula');
    expect(releaseRuleText(afterDays(1))).toBe('Libera 1 dia após a matrícula');
    expect(releaseRuleText(onDate('2026-12-24'))).toBe('Libera em 24/12/2026');
    expect(releaseRuleText(immediate)).toBeNull();
  });
});

describe('inside a turma (private.enrollment_release_at)', () => {
  const turma = (starts_on: string, dates: Record<string, string> = {}) => ({
    name: 'Turma de março',
    starts_on,
    ends_on: null,
    turma_module_dates: Object.entries(dates).map(([module_id, opens_on]) => ({ module_id, opens_on })),
  });
  const enrolled = (t: ReturnType<typeof turma>) => ({ created_at: '2026-01-05T12:00:00Z', turma: t });

  it('opens an immediate module at 00:00 of the start in São Paulo (03:00 UTC), not at the enrollment', () => {
    expect(enrollmentReleaseAt({ id: 'a', ...immediate }, enrolled(turma('2026-03-10')))?.toISOString()).toBe('2026-03-10T03:00:00.000Z');
  });
  it('counts AFTER_ENROLLMENT days from the start, not from the enrollment', () => {
    expect(enrollmentReleaseAt({ id: 'b', ...afterDays(7) }, enrolled(turma('2026-03-10')))?.toISOString()).toBe('2026-03-17T03:00:00.000Z');
  });
  it("lets the turma's date override the module's rule, and never opens before the start", () => {
    const t = turma('2026-03-10', { b: '2026-04-12', c: '2026-03-01' });
    expect(enrollmentReleaseAt({ id: 'b', ...afterDays(7) }, enrolled(t))?.toISOString()).toBe('2026-04-12T03:00:00.000Z');
    expect(enrollmentReleaseAt({ id: 'c', ...immediate }, enrolled(t))?.toISOString()).toBe('2026-03-10T03:00:00.000Z');
    expect(enrollmentReleaseAt({ id: 'd', ...onDate('2026-02-01') }, enrolled(t))?.toISOString()).toBe('2026-03-10T03:00:00.000Z');
  });
  it('keeps the outside-a-turma rule for an enrollment without one', () => {
    expect(enrollmentReleaseAt({ id: 'a', ...immediate }, { created_at: '2026-01-05T12:00:00Z', turma: null })).toBeNull();
  });
  it('locks every module until São Paulo midnight of the start, and opens at it', () => {
    const modules = [
      { id: 'a', ...immediate },
      { id: 'b', ...afterDays(7) },
    ];
    const e = enrolled(turma('2026-03-10', { b: '2026-04-12' }));
    // 23:59 on the 9th in São Paulo is already the 10th in UTC.
    expect([...moduleLocks(modules, { enrollment: e, now: new Date('2026-03-10T02:59:59Z') }).keys()]).toEqual(['a', 'b']);
    expect([...moduleLocks(modules, { enrollment: e, now: new Date('2026-03-10T03:00:00Z') }).keys()]).toEqual(['b']);
    expect(turmaStartAhead(e.turma, new Date('2026-03-10T02:59:59Z'))?.toISOString()).toBe('2026-03-10T03:00:00.000Z');
    expect(turmaStartAhead(e.turma, new Date('2026-03-10T03:00:00Z'))).toBeNull();
  });
  it('writes the start and the turma dates as dd/mm', () => {
    expect(turmaStartsText({ starts_on: '2026-03-10' })).toBe('Sua turma começa em 10/03');
    expect(lockedModuleText(startOfDayInSaoPaulo('2026-04-12')!, '2026-04-12')).toBe('Libera em 12/04');
    // A turma date before the start opens with the start: the full date of that moment.
    expect(lockedModuleText(startOfDayInSaoPaulo('2026-03-10')!, '2026-03-01')).toBe('Disponível em 10/03/2026');
  });
});
