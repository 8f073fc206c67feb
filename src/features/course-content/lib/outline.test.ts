import { describe, expect, it } from 'vitest';
import { minutesToSeconds, moveLesson, moveModule, nextOrderIndex, reorderPayload } from './outline';

const outline = () => [
  { id: 'm1', lessons: [{ id: 'a' }, { id: 'b' }, { id: 'c' }] },
  { id: 'm2', lessons: [{ id: 'd' }] },
  { id: 'm3', lessons: [] as { id: string }[] },
];

describe('content outline moves', () => {
  it('moves modules', () => {
    expect(moveModule(outline(), 'm3', 'm1').map((m) => m.id)).toEqual(['m3', 'm1', 'm2']);
    expect(moveModule(outline(), 'm1', 'm2').map((m) => m.id)).toEqual(['m2', 'm1', 'm3']);
  });

  it('moves a lesson within its module, down and up', () => {
    expect(reorderPayload(moveLesson(outline(), 'a', 'c'))[0]!.lessons).toEqual(['b', 'c', 'a']);
    expect(reorderPayload(moveLesson(outline(), 'c', 'a'))[0]!.lessons).toEqual(['c', 'a', 'b']);
  });

  it('moves a lesson across modules, before a lesson or into an empty module', () => {
    expect(reorderPayload(moveLesson(outline(), 'b', 'd'))).toEqual([
      { id: 'm1', lessons: ['a', 'c'] },
      { id: 'm2', lessons: ['b', 'd'] },
      { id: 'm3', lessons: [] },
    ]);
    expect(reorderPayload(moveLesson(outline(), 'd', 'm3')).slice(1)).toEqual([
      { id: 'm2', lessons: [] },
      { id: 'm3', lessons: ['d'] },
    ]);
  });

  it('a new module or lesson goes last (SPEC §4)', () => {
    expect(nextOrderIndex([{ order_index: 0 }, { order_index: 1 }])).toBe(2);
    expect(nextOrderIndex([])).toBe(0);
  });
});

describe('lesson length', () => {
  it('stores minutes as seconds', () => {
    expect(minutesToSeconds(12)).toBe(720);
    expect(minutesToSeconds(1.5)).toBe(90);
    expect(minutesToSeconds(-3)).toBe(0);
  });
});
