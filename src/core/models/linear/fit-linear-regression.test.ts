import { describe, expect, it } from 'vitest';
import { fitLinearRegression } from './fit-linear-regression';

function design(rows: number[][]): Float64Array {
  return Float64Array.from(rows.flat());
}

describe('fitLinearRegression', () => {
  it('recovers an exact line', () => {
    const fit = fitLinearRegression(
      design([
        [1, 0],
        [1, 1],
        [1, 2],
      ]),
      3,
      2,
      Float64Array.from([1, 3, 5]),
    );
    expect(fit.coefficients[0]).toBeCloseTo(1, 14);
    expect(fit.coefficients[1]).toBeCloseTo(2, 14);
    expect(fit.residualDf).toBe(1);
    expect(fit.residualSumOfSquares).toBeLessThan(1e-28);
  });

  it("marks the later of two collinear columns aliased and matches R's lm", () => {
    // R 4.2.2:
    //   x1 <- 1:8; x2 <- 2 * x1; x3 <- c(0.5, -1, 2, 0, 1.5, 3, -2, 1)
    //   y <- c(2.1, 3.9, 6.2, 7.8, 10.1, 12.2, 13.8, 16.1) + x3; f <- lm(y ~ x1 + x2 + x3)
    //   coef(f) = -0.0068226120857681205, 1.9943469785575045, NA, 1.0916179337231964
    //   SEs = 0.071217357191313141, 0.013988850630729089, 0.021149154226593265; sigma 0.090525862458632089
    const x3 = [0.5, -1, 2, 0, 1.5, 3, -2, 1];
    const y = [2.1, 3.9, 6.2, 7.8, 10.1, 12.2, 13.8, 16.1].map((v, i) => v + x3[i]!);
    const rows = x3.map((v, i) => [1, i + 1, 2 * (i + 1), v]);
    const fit = fitLinearRegression(design(rows), 8, 4, Float64Array.from(y));
    expect(Array.from(fit.aliased)).toEqual([0, 0, 1, 0]);
    expect(fit.rank).toBe(3);
    expect(fit.residualDf).toBe(5);
    const expected = [-0.0068226120857681205, 1.9943469785575045, NaN, 1.0916179337231964];
    const expectedSe = [0.071217357191313141, 0.013988850630729089, NaN, 0.021149154226593265];
    // Different Householder sign conventions and summation order than LINPACK: 1e-12 absolute on O(1) values.
    for (let j = 0; j < 4; j++) {
      if (j === 2) {
        expect(fit.coefficients[j]).toBeNaN();
        expect(fit.standardErrors[j]).toBeNaN();
        continue;
      }
      expect(Math.abs(fit.coefficients[j]! - expected[j]!)).toBeLessThan(1e-12);
      expect(Math.abs(fit.standardErrors[j]! - expectedSe[j]!)).toBeLessThan(1e-12);
    }
    expect(fit.residualStandardError).toBeCloseTo(0.090525862458632089, 12);
  });

  it('treats an all-zero column (an absent factor level) as aliased', () => {
    const fit = fitLinearRegression(
      design([
        [1, 0, 1],
        [1, 0, 2],
        [1, 0, 4],
      ]),
      3,
      3,
      Float64Array.from([1, 2, 4]),
    );
    expect(Array.from(fit.aliased)).toEqual([0, 1, 0]);
    expect(fit.coefficients[2]).toBeCloseTo(1, 13);
  });

  it('has no standard errors without residual degrees of freedom', () => {
    const fit = fitLinearRegression(
      design([
        [1, 0],
        [1, 1],
      ]),
      2,
      2,
      Float64Array.from([0, 1]),
    );
    expect(fit.residualDf).toBe(0);
    expect(fit.standardErrors[0]).toBeNaN();
  });
});
