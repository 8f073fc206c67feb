import { describe, expect, it } from 'vitest';
import { locateLesson } from './navigation';

const modules = [
  { id: 'm1', title: 'Primeiros passos', lessons: [{ id: 'a', title: 'A' }, { id: 'b', title: 'B' }] },
  { id: 'm2', title: 'Vazio', lessons: [] },
  { id: 'm3', title: 'Fórmulas', lessons: [{ id: 'c', title: 'C' }] },
];

describe('locateLesson', () => {
  it('moves across modules, skipping empty ones', () => {
    expect(locateLesson(modules, 'b')).toMatchObject({ previous: { id: 'a' }, next: { id: 'c' }, module: { id: 'm1' }, moduleNumber: 1, index: 2, total: 3 });
    expect(locateLesson(modules, 'c')).toMatchObject({ previous: { id: 'b' }, next: null, module: { title: 'Fórmulas' }, moduleNumber: 3 });
  });
  it('has no previous lesson at the start', () => {
    expect(locateLesson(modules, 'a')).toMatchObject({ previous: null, next: { id: 'b' } });
  });
  it('is null for a lesson outside the course', () => {
    expect(locateLesson(modules, 'zzz')).toBeNull();
  });
});
