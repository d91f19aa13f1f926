/**
 * Row loops over whole columns pause every this many rows to report progress and check for
 * cancellation: often enough to stop within milliseconds, rarely enough to cost nothing.
 */
export const ROWS_PER_CHECKPOINT = 1 << 16;
