import { describe, expect, it } from 'vitest';
import { SeededRng } from '../../../rng/seeded-rng';
import { drawCellsForRows } from './draw-rows';

describe('drawCellsForRows', () => {
  it('only draws listed cells with positive weight, in proportion', () => {
    const n = 40_000;
    const rows = drawCellsForRows(new SeededRng(3), n, [2, 9, 11], Float64Array.from([1, 3, 0]), 20);
    let nine = 0;
    let other = 0;
    for (const cell of rows) {
      if (cell === 9) nine++;
      else if (cell !== 2) other++;
    }
    expect(other).toBe(0);
    // Binomial(n, 3/4): SD = sqrt(n·3/16) ≈ 86.6 rows; 5 SD ≈ 433.
    expect(Math.abs(nine - 0.75 * n)).toBeLessThan(433);
  });

  it('falls back to the uniform distribution over the domain when every weight is zero', () => {
    const rows = drawCellsForRows(new SeededRng(3), 5000, [], new Float64Array(0), 4);
    const counts = [0, 0, 0, 0];
    for (const cell of rows) counts[cell]!++;
    // Each count is Binomial(5000, 1/4): SD ≈ 30.6; 5 SD ≈ 153.
    for (const count of counts) expect(Math.abs(count - 1250)).toBeLessThan(153);
  });

  it('shuffles rows so that their order does not follow the cell order', () => {
    const rows = drawCellsForRows(new SeededRng(4), 1000, [0, 1], Float64Array.from([1, 1]), 2);
    let changes = 0;
    for (let i = 1; i < rows.length; i++) if (rows[i] !== rows[i - 1]) changes++;
    // In random order about half of the 999 neighbours differ (SD ≈ 16); sorted order would give 1.
    expect(changes).toBeGreaterThan(400);
  });
});
