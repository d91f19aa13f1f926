/** What Recharts passes to a custom axis tick (the fields used here). */
interface TickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
  textAnchor?: 'start' | 'middle' | 'end' | 'inherit';
  verticalAnchor?: string;
  fill?: string;
}

/** Baseline shifts that put a one-line label where Recharts' own tick would put it. */
const SHIFT: Record<string, string> = { start: '0.71em', middle: '0.355em', end: '0' };

/**
 * An axis tick drawn as one plain SVG <text>. Recharts' default tick is its Text component, which
 * measures every word of every label in the DOM (a forced layout of the page per chart update) to
 * wrap labels that are never longer than one short number here: a chart's mount cost tens of
 * milliseconds of main-thread time in that measuring alone.
 */
export function plainTick(format: (value: number) => string, fontSize?: number) {
  return function PlainTick({ x, y, payload, textAnchor, verticalAnchor, fill }: TickProps) {
    return (
      <text
        x={x}
        y={y}
        textAnchor={textAnchor ?? 'middle'}
        dy={SHIFT[verticalAnchor ?? 'middle'] ?? '0.355em'}
        fill={fill ?? '#666'}
        {...(fontSize === undefined ? {} : { fontSize })}
      >
        {format(Number(payload?.value))}
      </text>
    );
  };
}
