import { describe, expect, it } from 'vitest';
import { CENTER, formatPosition, parsePosition, pointFromKey, pointFromPointer } from './image-position';

describe('image focal point', () => {
  it('parses and formats the CSS position the database accepts', () => {
    expect(parsePosition('25% 80%')).toEqual({ x: 25, y: 80 });
    expect(parsePosition('garbage')).toEqual(CENTER);
    expect(parsePosition('150% -3%')).toEqual({ x: 100, y: 0 });
    expect(formatPosition({ x: 33.4, y: 66.6 })).toBe('33% 67%');
  });

  it('maps a pointer inside the box to percentages, clamped to 0-100', () => {
    const box = { left: 100, top: 50, width: 200, height: 100 };
    expect(pointFromPointer(200, 100, box)).toEqual({ x: 50, y: 50 });
    expect(pointFromPointer(150, 75, box)).toEqual({ x: 25, y: 25 });
    expect(pointFromPointer(-500, 999, box)).toEqual({ x: 0, y: 100 });
    expect(pointFromPointer(10, 10, { left: 0, top: 0, width: 0, height: 0 })).toEqual(CENTER);
  });

  it('moves with the arrow keys, 10% with Shift, never past the edges', () => {
    expect(pointFromKey({ x: 50, y: 50 }, 'ArrowLeft', false)).toEqual({ x: 49, y: 50 });
    expect(pointFromKey({ x: 50, y: 50 }, 'ArrowDown', true)).toEqual({ x: 50, y: 60 });
    expect(pointFromKey({ x: 95, y: 3 }, 'ArrowRight', true)).toEqual({ x: 100, y: 3 });
    expect(pointFromKey({ x: 95, y: 3 }, 'ArrowUp', true)).toEqual({ x: 95, y: 0 });
    expect(pointFromKey({ x: 50, y: 50 }, 'Enter', false)).toBeNull();
  });
});
