/** An append-only list of (cell, weight) pairs in typed arrays that double when full. */
export class GrowableCellWeights {
  private cellBuffer: Uint32Array;
  private weightBuffer: Float64Array;
  private size = 0;

  constructor(initialCapacity = 1024) {
    const capacity = Math.max(1, initialCapacity);
    this.cellBuffer = new Uint32Array(capacity);
    this.weightBuffer = new Float64Array(capacity);
  }

  push(cell: number, weight: number): void {
    if (this.size === this.cellBuffer.length) {
      const cells = new Uint32Array(this.size * 2);
      cells.set(this.cellBuffer);
      const weights = new Float64Array(this.size * 2);
      weights.set(this.weightBuffer);
      this.cellBuffer = cells;
      this.weightBuffer = weights;
    }
    this.cellBuffer[this.size] = cell;
    this.weightBuffer[this.size++] = weight;
  }

  get length(): number {
    return this.size;
  }

  /**
   * The pairs pushed so far: views of the buffers when they are at least 7/8 full (no copy, at most
   * 1/7 more memory than needed), trimmed copies otherwise.
   */
  toArrays(): { cells: Uint32Array; weights: Float64Array } {
    const take = 8 * this.size >= 7 * this.cellBuffer.length ? 'subarray' : 'slice';
    return { cells: this.cellBuffer[take](0, this.size), weights: this.weightBuffer[take](0, this.size) };
  }
}
