import { describe, expect, it } from 'vitest';
import { availableOnText, moduleLocks, releaseAt, releaseRuleText, startOfDayInSaoPaulo } from './release';

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
