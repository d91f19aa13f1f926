import { describe, expect, it } from 'vitest';
import { cellColour, cellTextColour } from './heatmap-colours';
import {
  contrastRatio,
  REAL_COLOUR,
  RELEASE_COLOUR,
  SYNTHETIC_COLOUR,
  SYNTHETIC_OUTLINE,
} from './series-colours';

const CARD = '#ffffff';

/** An rgba(r, g, b, a) colour painted on white, as #rrggbb: each channel a·c + (1 − a)·255. */
function onWhite(rgba: string): string {
  const [r, g, b, a] = rgba.match(/[\d.]+/g)!.map(Number) as [number, number, number, number];
  return `#${[r, g, b]
    .map((c) =>
      Math.round(a * c + (1 - a) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

describe('chart colours', () => {
  it('computes WCAG contrast ratios (worked values: black on white 21, #777777 on white 4.48)', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 6);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    expect(contrastRatio('#ffffff', '#777777')).toBeCloseTo(contrastRatio('#777777', '#ffffff'), 12);
  });

  it('real and synthetic marks keep 3:1 against the card (WCAG 1.4.11); pale release markers are outlined', () => {
    expect(contrastRatio(REAL_COLOUR, CARD)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(SYNTHETIC_COLOUR, CARD)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(SYNTHETIC_OUTLINE, CARD)).toBeGreaterThanOrEqual(3);
    // The pale orange alone is too light, which is why its markers carry the outline.
    expect(contrastRatio(RELEASE_COLOUR, CARD)).toBeLessThan(3);
  });

  it('heatmap numbers keep 4.5:1 on every cell colour (WCAG 1.4.3 AA)', () => {
    for (const scale of ['signed', 'unsigned'] as const) {
      for (let i = -100; i <= 100; i++) {
        const value = i / 100;
        const background = onWhite(cellColour(value, scale));
        const ratio = contrastRatio(cellTextColour(value, scale), background);
        expect(ratio, `${scale} ${value} on ${background}`).toBeGreaterThanOrEqual(4.5);
      }
    }
  });
});
