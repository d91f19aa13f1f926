/** Says how much of a sweep or comparison came from the results of an earlier one. */
export function reusedText(reused: number, planned: number, things: string, earlier: string): string {
  const source = `an earlier ${earlier} with the same data, schema, settings and seed`;
  return reused >= planned
    ? `All ${planned} ${things} were taken from ${source}: nothing was run again.`
    : `${reused} of ${planned} ${things} were taken from ${source}; the other ${planned - reused} were run.`;
}
