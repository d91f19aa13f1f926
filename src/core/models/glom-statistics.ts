/** One numeric column of the general location model: its values and public bounds. */
export interface GlomNumericInput {
  values: Float64Array;
  missing: Uint8Array;
  lo: number;
  hi: number;
}

/**
 * The sufficient statistics of the general location model (Bowen & Liu §4.3.1; Schafer 1997 ch. 9)
 * over K cells of the categorical cross-tabulation and p numeric columns, every value clamped into
 * its bounds and a missing value counted at the midpoint c_j = (lo_j + hi_j)/2:
 * - counts[k] = n_k;
 * - sums[j][k] = Σ_{i in k} (x_ij − c_j), the cell sums centred at the midpoint;
 * - scatter[j][l] = Σ_k Σ_{i in k} (x_ij − x̄_kj)(x_il − x̄_kl), the pooled within-cell scatter
 *   (the paper's S times its divisor);
 * - missing[j] = the number of missing values of column j.
 */
export interface GlomStatistics {
  counts: Float64Array;
  sums: Float64Array[];
  scatter: number[][];
  missing: number[];
}

/** Per-cell Neumaier-compensated accumulators, so sums of n terms stay far below one grid step of error. */
class CompensatedCellSums {
  readonly sum: Float64Array;
  private readonly compensation: Float64Array;
  constructor(cells: number) {
    this.sum = new Float64Array(cells);
    this.compensation = new Float64Array(cells);
  }
  add(cell: number, value: number): void {
    const s = this.sum[cell]!;
    const t = s + value;
    this.compensation[cell] += Math.abs(s) >= Math.abs(value) ? s - t + value : value - t + s;
    this.sum[cell] = t;
  }
  totals(): Float64Array {
    const out = new Float64Array(this.sum.length);
    for (let k = 0; k < out.length; k++) out[k] = this.sum[k]! + this.compensation[k]!;
    return out;
  }
}

/** x clamped into [lo, hi] minus the midpoint; a missing value gives 0. */
function centredValues(column: GlomNumericInput): { centred: Float64Array; missing: number } {
  const centre = (column.lo + column.hi) / 2;
  const centred = new Float64Array(column.values.length);
  let missing = 0;
  for (let i = 0; i < centred.length; i++) {
    const v = column.values[i]!;
    if (column.missing[i] === 1 || Number.isNaN(v)) missing++;
    else centred[i] = Math.min(column.hi, Math.max(column.lo, v)) - centre;
  }
  return { centred, missing };
}

/** The statistics above from each row's cell and the numeric columns. Cost O(n·p² + K·p). */
export function glomStatistics(
  cellOfRow: Uint32Array,
  cells: number,
  columns: readonly GlomNumericInput[],
): GlomStatistics {
  const n = cellOfRow.length;
  const counts = new Float64Array(cells);
  for (let i = 0; i < n; i++) counts[cellOfRow[i]!]++;
  const prepared = columns.map(centredValues);
  const sums = prepared.map(({ centred }) => {
    const accumulator = new CompensatedCellSums(cells);
    for (let i = 0; i < n; i++) accumulator.add(cellOfRow[i]!, centred[i]!);
    return accumulator.totals();
  });
  const means = sums.map((sum) => sum.map((s, k) => (counts[k]! > 0 ? s / counts[k]! : 0)));
  const p = columns.length;
  const scatter = Array.from({ length: p }, () => new Array<number>(p).fill(0));
  for (let j = 0; j < p; j++) {
    for (let l = j; l < p; l++) {
      const accumulator = new CompensatedCellSums(1);
      const [xj, xl, mj, ml] = [prepared[j]!.centred, prepared[l]!.centred, means[j]!, means[l]!];
      for (let i = 0; i < n; i++) {
        const k = cellOfRow[i]!;
        accumulator.add(0, (xj[i]! - mj[k]!) * (xl[i]! - ml[k]!));
      }
      scatter[j]![l] = scatter[l]![j] = accumulator.totals()[0]!;
    }
  }
  return { counts, sums, scatter, missing: prepared.map(({ missing }) => missing) };
}
