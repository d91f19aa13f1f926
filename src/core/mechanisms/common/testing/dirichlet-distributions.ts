import { logGamma } from '../../../stats/log-gamma';
import type { Table } from '../../../table/types';
import { discreteLaplaceMass } from './released-count-distributions';

/**
 * Exact distributions of what the Dirichlet-prior mechanisms release, written from their definitions
 * (DIPS §3.2.1, §5) and independently of the mechanisms' code, for the noise audits. Test support only.
 */

/**
 * Beta-binomial pmf at s: the count in one cell of n Dirichlet–multinomial draws whose cell has
 * weight a and the other cells b in total: C(n, s)·B(s + a, n − s + b)/B(a, b).
 */
export function betaBinomialMass(s: number, n: number, a: number, b: number): number {
  if (s < 0 || s > n) return 0;
  const logChoose = logGamma(n + 1) - logGamma(s + 1) - logGamma(n - s + 1);
  const logBeta = (x: number, y: number) => logGamma(x) + logGamma(y) - logGamma(x + y);
  return Math.exp(logChoose + logBeta(s + a, n - s + b) - logBeta(a, b));
}

/** Distribution of min(n, max(0, c + Z)), Z discrete Laplace(t): a count after boundary inflated truncation. */
export function clampedNoisyCountPmf(count: number, scale: number, n: number): Float64Array {
  const pmf = new Float64Array(n + 1);
  const reach = Math.ceil(scale * Math.log(1e14)) + n + 1;
  for (let z = -count - reach; z <= reach; z++) {
    pmf[Math.min(n, Math.max(0, count + z))] += discreteLaplaceMass(z, scale);
  }
  return pmf;
}

/** The pmf of a sum of independent non-negative integer variables. */
export function convolvePmfs(a: Float64Array, b: Float64Array): Float64Array {
  const out = new Float64Array(a.length + b.length - 1);
  for (let i = 0; i < a.length; i++) for (let j = 0; j < b.length; j++) out[i + j] += a[i]! * b[j]!;
  return out;
}

/** Synthetic rows in the audited cell of auditTable(): x = a and y = u. */
export function rowsInAuditedCell(dataset: Table): number {
  const x = dataset.columns[0]!;
  const y = dataset.columns[1]!;
  if (x.kind !== 'categorical' || y.kind !== 'categorical') throw new Error('categorical columns expected');
  let count = 0;
  for (let i = 0; i < dataset.nRows; i++) {
    if (
      x.missing[i] === 0 &&
      y.missing[i] === 0 &&
      x.dictionary[x.codes[i]!] === 'a' &&
      y.dictionary[y.codes[i]!] === 'u'
    )
      count++;
  }
  return count;
}
