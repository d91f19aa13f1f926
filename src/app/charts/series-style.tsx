// The marks that tell real from synthetic data besides colour (series-colours.ts has the colours):
// the hatch of synthetic bars and the legend entry that names each series in words.
import { useId } from 'react';
import { SYNTHETIC_COLOUR } from './series-colours';

export { REAL_COLOUR, RELEASE_COLOUR, SYNTHETIC_COLOUR, SYNTHETIC_OUTLINE } from './series-colours';

/** A document-unique id for a chart's hatch pattern (React ids hold characters url(#…) dislikes). */
export function useHatchId(): string {
  return `synthetic-hatch-${useId().replace(/[^A-Za-z0-9_-]/g, '')}`;
}

/** The diagonal hatch of synthetic bars: white stripes on the synthetic colour. */
export function SyntheticHatch({ id }: { id: string }) {
  return (
    <defs>
      <pattern id={id} width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
        <rect width="5" height="5" fill={SYNTHETIC_COLOUR} />
        <line x1="1" y1="0" x2="1" y2="5" stroke="#fff" strokeWidth="1.6" />
      </pattern>
    </defs>
  );
}

/** The legend entry of a series: its swatch (hatched for synthetic) and its name in words. */
export function SeriesLegendItem({
  kind,
  children,
}: {
  kind: 'real' | 'synthetic';
  children: React.ReactNode;
}) {
  return (
    <span className="legend-item">
      <span className={`legend-swatch legend-${kind}`} aria-hidden="true" />
      {children}
    </span>
  );
}
