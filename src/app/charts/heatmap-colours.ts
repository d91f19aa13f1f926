import { contrastRatio } from './series-colours';

const POSITIVE = [38, 84, 124] as const;
const NEGATIVE = [164, 38, 44] as const;

function hueAndAlpha(value: number, scale: 'signed' | 'unsigned') {
  const strength = Math.min(1, Math.abs(value));
  return { rgb: scale === 'unsigned' || value >= 0 ? POSITIVE : NEGATIVE, alpha: 0.08 + 0.8 * strength };
}

/** Blue for positive, red for negative (signed); opacity grows with |value|, capped at 1. */
export function cellColour(value: number, scale: 'signed' | 'unsigned'): string {
  const { rgb, alpha } = hueAndAlpha(value, scale);
  return `rgba(${rgb.join(', ')}, ${alpha})`;
}

/**
 * Black or white text, whichever contrasts more with the cell as painted on the white card
 * (channel = α·c + (1 − α)·255); the better of the two is always at least 4.5:1 (WCAG AA).
 */
export function cellTextColour(value: number, scale: 'signed' | 'unsigned'): '#000000' | '#ffffff' {
  const { rgb, alpha } = hueAndAlpha(value, scale);
  const hex = `#${rgb
    .map((c) =>
      Math.round(alpha * c + (1 - alpha) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
  return contrastRatio(hex, '#000000') >= contrastRatio(hex, '#ffffff') ? '#000000' : '#ffffff';
}
