import { describe, expect, it } from 'vitest';
import { solverGapWarnings } from './solver-gap';

describe('solverGapWarnings', () => {
  it('warns for exactly the regressions whose certificate exceeds the allowed gap (or is not a number)', () => {
    const warnings = solverGapWarnings([
      { column: 'a', gapBound: 1e-11, allowedGap: 1e-5 },
      { column: 'b', gapBound: 1e-5, allowedGap: 1e-5 },
      { column: 'c', gapBound: 2.5e-5, allowedGap: 1e-5 },
      { column: 'd', gapBound: NaN, allowedGap: 1e-5 },
    ]);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(
      /^The regression of `c` ended ‖∇J\(β_T\)‖\/λ = 2\.50e-5 .* allowed gap 1\.00e-5 /,
    );
    expect(warnings[1]).toMatch(/^The regression of `d` ended ‖∇J\(β_T\)‖\/λ = NaN /);
  });
});
