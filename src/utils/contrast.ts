// WCAG contrast for the school's colours: any brand colour a school picks still gives readable text
// (≥ 4.5:1), by deriving a darker shade for white text and light surfaces, and a lighter one for
// dark surfaces (the lesson player), and one for the brand's own light tints. The hue stays the school's.
type Rgb = [number, number, number];

export function parseHex(hex: string): Rgb {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? h.split('').map((c) => c + c).join('') : h;
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as Rgb;
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrastRatio(a: string, b: string): number {
  const [l1, l2] = [luminance(parseHex(a)), luminance(parseHex(b))].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}

const mix = (c: Rgb, target: number, t: number): Rgb => c.map((v) => v + (target - v) * t) as Rgb;

/** What the browser paints for `color` at `alpha` opacity over `base` (e.g. bg-primary/5 on a white card). */
export function over(color: string, alpha: number, base = '#ffffff'): string {
  const [c, b] = [parseHex(color), parseHex(base)];
  return toHex(c.map((v, i) => b[i]! + (v - b[i]!) * alpha) as Rgb);
}

/** The colour, mixed towards black (or white) in small steps until it reaches `ratio` against `against`. */
export function shadeFor(color: string, against: string, ratio = 4.5): string {
  const base = parseHex(color);
  const towards = luminance(parseHex(against)) > 0.5 ? 0 : 255;
  for (let t = 0; t <= 1; t += 0.02) {
    const candidate = toHex(mix(base, towards, t));
    if (contrastRatio(candidate, against) >= ratio) return candidate;
  }
  return towards === 0 ? '#000000' : '#ffffff';
}
