/** Rows a split keeps back from `n` when it keeps back `share` of them: round(share · n). */
export function keptBackCount(n: number, share: number): number {
  return Math.round(share * n);
}
