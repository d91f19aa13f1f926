/**
 * L1 sensitivity of a full cross-tabulation under replace-one neighbours: the replaced row leaves
 * one cell (−1) and enters another (+1), so ‖n − n′‖₁ ≤ 2 (DIPS study §3.1.1, Bowen & Liu;
 * DESIGN.md privacy rule 1). The study's simulations use 1, which is the add/remove value.
 */
export const CROSS_TABULATION_SENSITIVITY_REPLACE_ONE = 2;
