/**
 * Growable arrays for columns whose length is unknown until the end of a stream. Values live in
 * fixed pages of PAGE_SIZE entries, so growing never copies what is already stored and the spare
 * room is at most one page (a doubling array would, while it grows, hold the old and the new copy:
 * three times the data). Page `p` holds rows [p·PAGE_SIZE, (p+1)·PAGE_SIZE).
 */
export const PAGE_BITS = 16;
export const PAGE_SIZE = 1 << PAGE_BITS;
const PAGE_MASK = PAGE_SIZE - 1;

/** Doubles, paged. */
export class PagedFloat64 {
  readonly pages: Float64Array[] = [];
  length = 0;

  push(value: number): void {
    const offset = this.length & PAGE_MASK;
    if (offset === 0) this.pages.push(new Float64Array(PAGE_SIZE));
    this.pages[this.pages.length - 1]![offset] = value;
    this.length++;
  }

  get(i: number): number {
    return this.pages[i >>> PAGE_BITS]![i & PAGE_MASK]!;
  }
}

type CodePage = Uint8Array | Uint16Array | Uint32Array;

/**
 * Non-negative integer codes, paged, stored in the narrowest width that holds the largest code so
 * far (1, 2 or 4 bytes): a column of a few categories costs one byte a row while it is read.
 * Widening rewrites the pages once per width step.
 */
export class PagedCodes {
  pages: CodePage[] = [];
  length = 0;
  private limit = 0xff;
  private bytesPerCode: 1 | 2 | 4 = 1;

  push(code: number): void {
    if (code > this.limit) this.widen(code);
    const offset = this.length & PAGE_MASK;
    if (offset === 0) this.pages.push(this.newPage());
    this.pages[this.pages.length - 1]![offset] = code;
    this.length++;
  }

  get(i: number): number {
    return this.pages[i >>> PAGE_BITS]![i & PAGE_MASK]!;
  }

  private newPage(): CodePage {
    if (this.bytesPerCode === 1) return new Uint8Array(PAGE_SIZE);
    return this.bytesPerCode === 2 ? new Uint16Array(PAGE_SIZE) : new Uint32Array(PAGE_SIZE);
  }

  private widen(code: number): void {
    this.bytesPerCode = code > 0xffff ? 4 : 2;
    this.limit = this.bytesPerCode === 4 ? 0xffffffff : 0xffff;
    this.pages = this.pages.map((page) => {
      const wider = this.newPage();
      wider.set(page);
      return wider;
    });
  }
}
