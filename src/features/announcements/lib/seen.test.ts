import { describe, expect, it } from 'vitest';
import { localDay, markSeenToday, seenKey, seenToday } from './seen';

function memory() {
  const map = new Map<string, string>();
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), map };
}

describe('once a day per school', () => {
  it('is not seen until closed, then seen for the rest of the day', () => {
    const store = memory();
    const morning = new Date(2026, 4, 10, 8, 0);
    const night = new Date(2026, 4, 10, 23, 59);
    expect(seenToday('s1', morning, store)).toBe(false);
    markSeenToday('s1', morning, store);
    expect(seenToday('s1', night, store)).toBe(true);
    expect(store.map.get(seenKey('s1'))).toBe('2026-05-10');
  });
  it('shows again the next day', () => {
    const store = memory();
    markSeenToday('s1', new Date(2026, 4, 10, 23, 59), store);
    expect(seenToday('s1', new Date(2026, 4, 11, 0, 1), store)).toBe(false);
  });
  it('keeps schools apart', () => {
    const store = memory();
    markSeenToday('s1', new Date(2026, 4, 10), store);
    expect(seenToday('s2', new Date(2026, 4, 10), store)).toBe(false);
  });
  it('survives unavailable storage', () => {
    const broken = { getItem: () => { throw new Error('blocked'); }, setItem: () => { throw new Error('blocked'); } };
    expect(seenToday('s1', new Date(), broken)).toBe(false);
    expect(() => markSeenToday('s1', new Date(), broken)).not.toThrow();
    expect(localDay(new Date(2026, 0, 5))).toBe('2026-01-05');
  });
});
