import { clampPercent } from '@/utils/format';

// The focal point of an image as the CSS position the database accepts: 'X% Y%', each 0-100.

export interface FocalPoint {
  x: number;
  y: number;
}

export const CENTER: FocalPoint = { x: 50, y: 50 };


export function parsePosition(value: string | null | undefined): FocalPoint {
  const m = /^\s*(-?[\d.]+)%\s+(-?[\d.]+)%\s*$/.exec(value ?? '');
  return m ? { x: clampPercent(Number(m[1])), y: clampPercent(Number(m[2])) } : CENTER;
}

export function formatPosition({ x, y }: FocalPoint): string {
  return `${clampPercent(x)}% ${clampPercent(y)}%`;
}

/** The point under a pointer inside a box, in percent of the box, clamped to 0-100. */
export function pointFromPointer(clientX: number, clientY: number, box: { left: number; top: number; width: number; height: number }): FocalPoint {
  if (box.width <= 0 || box.height <= 0) return CENTER;
  return { x: clampPercent(((clientX - box.left) / box.width) * 100), y: clampPercent(((clientY - box.top) / box.height) * 100) };
}

/** Arrow keys move the point by 1% (10% with Shift). Returns null for other keys. */
export function pointFromKey(point: FocalPoint, key: string, shift: boolean): FocalPoint | null {
  const step = shift ? 10 : 1;
  switch (key) {
    case 'ArrowLeft':
      return { x: clampPercent(point.x - step), y: point.y };
    case 'ArrowRight':
      return { x: clampPercent(point.x + step), y: point.y };
    case 'ArrowUp':
      return { x: point.x, y: clampPercent(point.y - step) };
    case 'ArrowDown':
      return { x: point.x, y: clampPercent(point.y + step) };
    default:
      return null;
  }
}
