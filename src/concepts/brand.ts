// The school's colours as CSS variables (src/index.css). Whatever colour a school picks, text stays
// readable: `primary` is the shade that carries white text and reads on white, `primary-on-dark` the
// tint that reads on the dark player, `primary-on-tint` the shade that reads on the brand's own light
// tints (bg-primary/5 and /10: the selected payment method, issue 46), all ≥ 4.5:1 (src/utils/contrast.ts).
import { over, shadeFor } from '@/utils/contrast';

export const DEFAULT_PRIMARY = '#3b82f6';
export const DEFAULT_SECONDARY = '#8b5cf6';

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

export function safeColor(value: string | null | undefined, fallback: string): string {
  return value && HEX.test(value.trim()) ? value.trim() : fallback;
}

/** The ratio each shade is made for: 4.5:1 with a margin, since the browser paints in 8-bit steps and
 * a surface a shade off white (a translucent header, a tint) can take a shade made for exactly 4.5:1
 * below it (4.49:1 in tests/e2e/brand-contrast.spec.ts). */
const SHADE_RATIO = 4.55;

/** The shades of a brand colour that text uses (see the top of this file). */
export function brandShades(brand: string): { strong: string; onDark: string; onTint: string } {
  const strong = shadeFor(brand, '#ffffff', SHADE_RATIO);
  return {
    strong,
    // Against slate-800, the lightest dark surface of the player.
    onDark: shadeFor(brand, '#1e293b', SHADE_RATIO),
    // Against the darker of the tints text sits on (10% of the shade over white): it reads on 5% too.
    onTint: shadeFor(strong, over(strong, 0.1), SHADE_RATIO),
  };
}

export function applyBrandColors(primary?: string | null, secondary?: string | null): void {
  const root = document.documentElement;
  const brand = safeColor(primary, DEFAULT_PRIMARY);
  const shades = brandShades(brand);
  root.style.setProperty('--brand-primary', brand);
  root.style.setProperty('--brand-primary-strong', shades.strong);
  root.style.setProperty('--brand-primary-on-dark', shades.onDark);
  root.style.setProperty('--brand-primary-on-tint', shades.onTint);
  root.style.setProperty('--brand-secondary', safeColor(secondary, DEFAULT_SECONDARY));
}
