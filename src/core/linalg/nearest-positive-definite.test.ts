import { describe, expect, it } from 'vitest';
import { projectToPositiveDefinite } from './nearest-positive-definite';

describe('projectToPositiveDefinite', () => {
  it('raises negative eigenvalues to the floor and keeps the eigenvectors', () => {
    // [[1, 2], [2, 1]] has eigenvalues 3 and −1 with eigenvectors (1, 1)/√2 and (1, −1)/√2;
    // flooring −1 at 0.5 gives 3·vvᵀ + 0.5·uuᵀ = [[1.75, 1.25], [1.25, 1.75]].
    const projected = projectToPositiveDefinite(
      [
        [1, 2],
        [2, 1],
      ],
      0.5,
    );
    expect(projected[0]![0]).toBeCloseTo(1.75, 12);
    expect(projected[0]![1]).toBeCloseTo(1.25, 12);
    expect(projected[1]![0]).toBeCloseTo(1.25, 12);
    expect(projected[1]![1]).toBeCloseTo(1.75, 12);
  });

  it('leaves a matrix whose eigenvalues are above the floor unchanged', () => {
    const a = [
      [4, 1],
      [1, 3],
    ];
    const projected = projectToPositiveDefinite(a, 0.01);
    for (let i = 0; i < 2; i++)
      for (let j = 0; j < 2; j++) expect(projected[i]![j]).toBeCloseTo(a[i]![j]!, 12);
  });
});
