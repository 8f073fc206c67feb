// The school's colours as CSS variables (src/index.css). Whatever colour a school picks, text stays
// readable: `primary` is the shade that carries white text and reads on white, `primary-on-dark` the
// tint that reads on the dark player (both ≥ 4.5:1, src/lib/contrast.ts).
import { shadeFor } from './contrast';

export const DEFAULT_PRIMARY = '#3b82f6';
export const DEFAULT_SECONDARY = '#8b5cf6';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function safeColor(value: string | null | undefined, fallback: string): string {
  return value && HEX.test(value.trim()) ? value.trim() : fallback;
}

export function applyBrandColors(primary?: string | null, secondary?: string | null): void {
  const root = document.documentElement;
  const brand = safeColor(primary, DEFAULT_PRIMARY);
  root.style.setProperty('--brand-primary', brand);
  root.style.setProperty('--brand-primary-strong', shadeFor(brand, '#ffffff'));
  // Against slate-800, the lightest dark surface of the player.
  root.style.setProperty('--brand-primary-on-dark', shadeFor(brand, '#1e293b'));
  root.style.setProperty('--brand-secondary', safeColor(secondary, DEFAULT_SECONDARY));
}
