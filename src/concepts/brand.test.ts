import { contrastRatio, over, shadeFor } from '@/utils/contrast';
import { brandShades, DEFAULT_PRIMARY } from './brand';

// Every colour of the 12-bit palette (4,096 of them, black to white) as a school's brand colour.
const palette = Array.from({ length: 4096 }, (_, i) => `#${i.toString(16).padStart(3, '0')}`);

describe('brand colour shades', () => {
  it('white text on the derived shade reads at 4.5:1 or more, for any colour', () => {
    const bad = palette.filter((c) => contrastRatio(shadeFor(c, '#ffffff'), '#ffffff') < 4.5);
    expect(bad).toEqual([]);
  });

  it('the tint for the dark player reads at 4.5:1 or more on its surfaces, for any colour', () => {
    for (const surface of ['#1e293b', '#0f172a', '#020618']) {
      expect(palette.filter((c) => contrastRatio(shadeFor(c, '#1e293b'), surface) < 4.5)).toEqual([]);
    }
  });

  it('keeps a colour that already passes, and only darkens the default blue a little', () => {
    expect(shadeFor('#1d4ed8', '#ffffff')).toBe('#1d4ed8');
    expect(shadeFor(DEFAULT_PRIMARY, '#ffffff')).toBe('#3472d8');
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });
});

describe("text in the brand's colour on the brand's own light tint (issue 46)", () => {
  it('the selected payment method (bg-primary/5, and /10 elsewhere) reads at 4.5:1 or more, for any colour', () => {
    const bad = palette.filter((c) => {
      const { strong, onTint } = brandShades(c);
      return [0.05, 0.1].some((alpha) => contrastRatio(onTint, over(strong, alpha)) < 4.5);
    });
    expect(bad).toEqual([]);
  });

  it('the default blue: 4.34:1 as the plain shade (the reported defect), 4.5:1 or more as the tint text', () => {
    const { strong, onTint } = brandShades(DEFAULT_PRIMARY);
    expect(contrastRatio(strong, over(strong, 0.05))).toBeCloseTo(4.34, 2);
    expect(contrastRatio(onTint, over(strong, 0.05))).toBeGreaterThanOrEqual(4.5);
  });

  it('a colour over white at an opacity is what the browser paints', () => {
    expect(over('#000000', 0.5)).toBe('#808080');
    expect(over('#3472d8', 0)).toBe('#ffffff');
    expect(over('#3472d8', 1)).toBe('#3472d8');
  });
});
