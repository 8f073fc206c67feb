import { contrastRatio, shadeFor } from './contrast';
import { DEFAULT_PRIMARY } from './brand';

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
