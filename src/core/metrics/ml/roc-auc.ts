/**
 * Area under the ROC curve from scores and 0/1 labels by the Mann–Whitney statistic
 * (Hanley & McNeil 1982, Radiology 143, eq. 2; Bamber 1975):
 *
 *   AUC = (R₁ − n₁(n₁ + 1)/2) / (n₁ n₀),
 *
 * R₁ = sum of the ranks of the positive rows among all scores, tied scores sharing their mid-rank —
 * so a tie between a positive and a negative counts ½, exactly the trapezoidal ROC area.
 * null when either class is absent. Cost O(n log n).
 * Example: scores [0.1, 0.4, 0.35, 0.8], labels [0, 0, 1, 1] → 0.75.
 */
export function rocAucMannWhitney(scores: ArrayLike<number>, labels: ArrayLike<number>): number | null {
  const n = scores.length;
  if (labels.length !== n) throw new RangeError('One label per score is needed.');
  let positives = 0;
  for (let i = 0; i < n; i++) positives += labels[i] === 1 ? 1 : 0;
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return null;
  const order = Uint32Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a]! - scores[b]!);
  let positiveRankSum = 0;
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && scores[order[end]!] === scores[order[start]!]) end++;
    // Ranks start + 1 … end share the mid-rank (start + 1 + end) / 2.
    const midRank = (start + 1 + end) / 2;
    for (let k = start; k < end; k++) if (labels[order[k]!] === 1) positiveRankSum += midRank;
    start = end;
  }
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** Share of rows whose predicted class (score ≥ ½ → 1) equals the label. */
export function accuracyAtHalf(scores: ArrayLike<number>, labels: ArrayLike<number>): number {
  let correct = 0;
  for (let i = 0; i < scores.length; i++) correct += (scores[i]! >= 0.5 ? 1 : 0) === labels[i] ? 1 : 0;
  return correct / scores.length;
}

/**
 * Agreement rate of two classifiers on the same rows (Bindschaedler, Shokri & Gunter 2017,
 * "Plausible deniability for privacy-preserving data synthesis", §6.3): the share of rows on which
 * their predicted classes (score ≥ ½) are equal, whether or not they are correct.
 */
export function agreementRate(scoresA: ArrayLike<number>, scoresB: ArrayLike<number>): number {
  if (scoresA.length !== scoresB.length) throw new RangeError('Both classifiers must score the same rows.');
  let same = 0;
  for (let i = 0; i < scoresA.length; i++) same += scoresA[i]! >= 0.5 === scoresB[i]! >= 0.5 ? 1 : 0;
  return same / scoresA.length;
}
