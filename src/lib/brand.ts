// The school's colours as CSS variables (--brand-primary / --brand-secondary, used by Tailwind's
// `primary`/`secondary` colours).
export const DEFAULT_PRIMARY = '#3b82f6';
export const DEFAULT_SECONDARY = '#8b5cf6';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function safeColor(value: string | null | undefined, fallback: string): string {
  return value && HEX.test(value.trim()) ? value.trim() : fallback;
}

export function applyBrandColors(primary?: string | null, secondary?: string | null): void {
  const root = document.documentElement;
  root.style.setProperty('--brand-primary', safeColor(primary, DEFAULT_PRIMARY));
  root.style.setProperty('--brand-secondary', safeColor(secondary, DEFAULT_SECONDARY));
}
