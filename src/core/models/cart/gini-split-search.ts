/**
 * rpart's Gini split search for a binary target with default priors and losses and unit case
 * weights (rpart gini.c, `gini()`), for one column within one node.
 *
 * Arithmetic. With unit weights rpart's altered priors are exactly 1 (prior_j / (Σprior · freq_j)
 * with prior_j = freq_j = c_j/n and fl(c_0/n) + fl(c_1/n) = 1; checked for every split of every
 * n <= 3000), so its weights lwt/rwt are the child sizes and every count is an exact integer.
 * The impurity of a group of m rows with class proportions p_0, p_1 enters as m·p_0(1−p_0) +
 * m·p_1(1−p_1) (gini_impure1(p) = p(1−p), summed over both classes). A split's cost is
 *   temp = L·I(l0/L) + R·I(r0/R) + L·I(l1/L) + R·I(r1/R)      (added left to right, as rpart does)
 * and improve = total_ss − min(temp) with total_ss = n·I(n0/n) + n·I(n1/n). The operation order is
 * rpart's, so rounding (and hence tie-breaking) is identical: a candidate replaces the best only
 * if strictly smaller, so the lowest threshold (or shortest level prefix) wins ties.
 *
 * Direction: the side with the smaller class-1 proportion goes left (rpart: `lmean < rmean`
 * gives LEFT for the lower group, otherwise RIGHT).
 */

/**
 * Division-free screen before rpart's exact cost expression. The cost equals
 * T = 2(l0·l1/L + r0·r1/R) = F/(L·R) with F = 2(l0·l1·R + r0·r1·L), and rpart's rounded value is
 * within ~10 ulp of T. A candidate can only beat `best` (strict `<` on rpart's value) if
 * F < best·L·R·(1 + 1e-9); the others are skipped without the four divisions. The products are
 * exact integers below 2^53 (n up to ~3·10^5) and within a few ulp above, far inside the margin,
 * so the screen never drops a candidate rpart would take: the chosen split is unchanged.
 */
const SCREEN_MARGIN = 1 + 1e-9;

/** Result of one search; `improve` is 0 when the column has no admissible split. */
export interface SplitSearchResult {
  improve: number;
  /** Numeric: position (in the node's sorted segment) of the last row below the split. Categorical: prefix length. */
  position: number;
  /** Numeric: rows with x < threshold go left. Categorical: the level prefix goes left. */
  lowerGoesLeft: boolean;
}

export function makeSplitSearchResult(): SplitSearchResult {
  // improve starts at -0, a double, so the field has a double representation (updated in place).
  return { improve: -0, position: -1, lowerGoesLeft: false };
}

/** n·p(1−p) + n·q(1−q) for the two class proportions of a group of n rows, rpart's order. */
function nodeGiniTotal(size: number, class0: number, class1: number): number {
  const p0 = class0 / size;
  const p1 = class1 / size;
  return size * (p0 * (1 - p0)) + size * (p1 * (1 - p1));
}

/**
 * Best split of a numeric column over the node segment [start, end) of its sorted packed keys
 * (2 × value rank + label, see cart-workspace.ts). Candidates lie between consecutive distinct
 * values with at least `minBucket` rows on each side (rpart: loop while rtot > edge, evaluate when
 * ltot >= edge and x[i+1] != x[i]; equal ranks ⇔ equal values). O(end − start).
 */
export function searchNumericGiniSplit(
  packed: Int32Array,
  start: number,
  end: number,
  nodeClass1: number,
  minBucket: number,
  result: SplitSearchResult,
): void {
  const size = end - start;
  // Counts are exact integers held as doubles: the -0 starts make V8 choose a double
  // representation (no int32 overflow checks in the products below), and the label enters
  // arithmetically, so the loop has no data-dependent branch. -0 + 1 = 1: values are unchanged.
  let left1 = -0;
  let leftSize = -0;
  let right1 = nodeClass1 + left1;
  let rightSize = size + leftSize;
  // nodeGiniTotal written out, and the margin held in a local: keeps every double in this hot
  // function unboxed in V8 (a call result or a module-level constant here made it allocate).
  const p0 = (size - nodeClass1) / size;
  const p1 = nodeClass1 / size;
  const totalSs = size * (p0 * (1 - p0)) + size * (p1 * (1 - p1));
  const halfMargin = SCREEN_MARGIN * 0.5;
  let best = totalSs;
  let where = -1;
  let lowerGoesLeft = false;
  // Half the screen bound of SCREEN_MARGIN: F/2 < screen · L · R  ⇔  F < best · L · R · SCREEN_MARGIN.
  let screen = best * halfMargin;
  let i = start;
  // The first minBucket − 1 rows cannot end a left child: only count them.
  const firstCandidate = Math.min(start + minBucket - 1, end);
  for (; i < firstCandidate && rightSize > minBucket; i++) {
    const label = packed[i]! & 1;
    left1 += label;
    right1 -= label;
    leftSize += 1;
    rightSize -= 1;
  }
  let next = packed[i]!;
  for (; rightSize > minBucket; i++) {
    const current = next;
    next = packed[i + 1]!;
    const label = current & 1;
    left1 += label;
    right1 -= label;
    leftSize += 1;
    rightSize -= 1;
    if (
      (current ^ next) > 1 &&
      (leftSize - left1) * left1 * rightSize + (rightSize - right1) * right1 * leftSize <
        screen * (leftSize * rightSize)
    ) {
      const left0 = leftSize - left1;
      const right0 = rightSize - right1;
      const pl0 = left0 / leftSize;
      let temp = leftSize * (pl0 * (1 - pl0));
      const pr0 = right0 / rightSize;
      temp += rightSize * (pr0 * (1 - pr0));
      const pl1 = left1 / leftSize;
      temp += leftSize * (pl1 * (1 - pl1));
      const pr1 = right1 / rightSize;
      temp += rightSize * (pr1 * (1 - pr1));
      if (temp < best) {
        best = temp;
        where = i;
        lowerGoesLeft = pl1 < pr1;
        screen = best * halfMargin;
      }
    }
  }
  result.improve = totalSs - best;
  result.position = where;
  result.lowerGoesLeft = lowerGoesLeft;
}

/**
 * Stable ascending sort of `order[0..m)` by `rate[order[i]]` (rpart graycode_init2 is a stable
 * insertion sort; equal rates keep level order). Insertion sort for short lists, merge sort above.
 */
function sortLevelsByRate(order: Int32Array, m: number, rate: Float64Array, buffer: Int32Array): void {
  if (m <= 32) {
    for (let i = 1; i < m; i++) {
      const level = order[i]!;
      const value = rate[level]!;
      let j = i - 1;
      while (j >= 0 && rate[order[j]!]! > value) {
        order[j + 1] = order[j]!;
        j--;
      }
      order[j + 1] = level;
    }
    return;
  }
  let from = order;
  let to = buffer;
  for (let width = 1; width < m; width *= 2) {
    for (let lo = 0; lo < m; lo += 2 * width) {
      const mid = Math.min(lo + width, m);
      const hi = Math.min(lo + 2 * width, m);
      let a = lo;
      let b = mid;
      let k = lo;
      while (a < mid && b < hi) {
        if (rate[from[b]!]! < rate[from[a]!]!) to[k++] = from[b++]!;
        else to[k++] = from[a++]!;
      }
      while (a < mid) to[k++] = from[a++]!;
      while (b < hi) to[k++] = from[b++]!;
    }
    const swap = from;
    from = to;
    to = swap;
  }
  if (from !== order) for (let i = 0; i < m; i++) order[i] = from[i]!;
}

/**
 * Best subset split of a categorical column for the node rows `rows[start..end)`.
 * For two classes the optimal subset is a prefix of the levels ordered by class-0 proportion
 * (Breiman et al. 1984, Thm 4.5; rpart graycode_init2 orders by rate = n0/n ascending, levels
 * absent from the node excluded). Every prefix with >= minBucket rows on both sides is scored.
 * Leaves in `levelOrder[0..levelsPresent)` the sorted present levels (read by the caller to build
 * the level sides); returns levelsPresent. O(end − start + L log L).
 */
export function searchCategoricalGiniSplit(
  codes: Uint32Array,
  nLevels: number,
  labels: Uint8Array,
  rows: Int32Array,
  start: number,
  end: number,
  nodeClass1: number,
  minBucket: number,
  scratch: {
    levelCount0: Float64Array;
    levelCount1: Float64Array;
    levelOrder: Int32Array;
    levelRate: Float64Array;
    levelMergeBuffer: Int32Array;
  },
  result: SplitSearchResult,
): number {
  const count0 = scratch.levelCount0;
  const count1 = scratch.levelCount1;
  const order = scratch.levelOrder;
  const rate = scratch.levelRate;
  for (let k = 0; k < nLevels; k++) {
    count0[k] = 0;
    count1[k] = 0;
  }
  for (let pos = start; pos < end; pos++) {
    const row = rows[pos]!;
    const label = labels[row]!;
    const code = codes[row]!;
    count1[code] = count1[code]! + label;
    count0[code] = count0[code]! + (1 - label);
  }
  let present = 0;
  for (let k = 0; k < nLevels; k++) {
    const total = count0[k]! + count1[k]!;
    if (total > 0) {
      rate[k] = count0[k]! / total;
      order[present++] = k;
    }
  }
  sortLevelsByRate(order, present, rate, scratch.levelMergeBuffer);

  const size = end - start;
  let right1 = nodeClass1;
  let right0 = size - nodeClass1;
  let left0 = 0;
  let left1 = 0;
  let rightSize = size;
  let leftSize = 0;
  const totalSs = nodeGiniTotal(size, right0, right1);
  let best = totalSs;
  let bestPrefix = -1;
  let prefixGoesLeft = false;
  for (let s = 0; s < present; s++) {
    const level = order[s]!;
    const c0 = count0[level]!;
    const c1 = count1[level]!;
    left0 += c0;
    left1 += c1;
    right0 -= c0;
    right1 -= c1;
    leftSize += c0 + c1;
    rightSize -= c0 + c1;
    if (
      leftSize >= minBucket &&
      rightSize >= minBucket &&
      2 * (left0 * left1 * rightSize + right0 * right1 * leftSize) <
        best * leftSize * rightSize * SCREEN_MARGIN
    ) {
      const pl0 = left0 / leftSize;
      let temp = leftSize * (pl0 * (1 - pl0));
      const pr0 = right0 / rightSize;
      temp += rightSize * (pr0 * (1 - pr0));
      const pl1 = left1 / leftSize;
      temp += leftSize * (pl1 * (1 - pl1));
      const pr1 = right1 / rightSize;
      temp += rightSize * (pr1 * (1 - pr1));
      if (temp < best) {
        best = temp;
        bestPrefix = s + 1;
        prefixGoesLeft = pl1 < pr1;
      }
    }
  }
  result.improve = totalSs - best;
  result.position = bestPrefix;
  result.lowerGoesLeft = prefixGoesLeft;
  return present;
}
