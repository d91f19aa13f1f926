/** One regression's solver check, computed from the real data (for the data holder only). */
export interface SolverGapCheck {
  column: string;
  /** ‖∇J(β_T)‖/λ >= ‖β_T − β̂‖ (J is λ-strongly convex and ∇J(β̂) = 0). */
  gapBound: number;
  /** gap = Δ₀/1000, the distance from the minimiser that the noise's Δ = (Δ₀ + 2·gap)(1 + 10⁻¹²) covers. */
  allowedGap: number;
}

/**
 * A warning for each regression whose certificate ‖∇J(β_T)‖/λ exceeds the allowed gap: the fit is then not
 * confirmed to be as close to the exact minimiser as the noise assumes (the T steps guarantee the gap in
 * exact arithmetic only). Computed from the real data: for the data holder, never for release.
 */
export function solverGapWarnings(checks: readonly SolverGapCheck[]): string[] {
  return checks
    .filter((check) => !(check.gapBound <= check.allowedGap))
    .map(
      (check) =>
        `The regression of \`${check.column}\` ended ‖∇J(β_T)‖/λ = ${check.gapBound.toExponential(2)} from ` +
        `the exact minimiser at most, above the allowed gap ${check.allowedGap.toExponential(2)} that the noise ` +
        'is calibrated for: the fit is not confirmed close enough, so the stated ε is not confirmed for this ' +
        'run. Consider not releasing it; a larger λ makes the fit better conditioned.',
    );
}
