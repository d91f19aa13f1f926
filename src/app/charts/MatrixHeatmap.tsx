import { cellColour, cellTextColour } from './heatmap-colours';

interface MatrixHeatmapProps {
  title: string;
  labels: string[];
  values: (number | null)[][];
  /** 'signed': −1 … 1 in two hues (differences); 'unsigned': 0 … 1 in one hue. */
  scale: 'signed' | 'unsigned';
}

/**
 * A square matrix (correlations, their differences) as a CSS grid of coloured cells with the value
 * printed in each; undefined entries are left blank. The table semantics let screen readers read it.
 */
export function MatrixHeatmap({ title, labels, values, scale }: MatrixHeatmapProps) {
  return (
    <figure className="matrix-heatmap" data-chart="matrix">
      <figcaption>{title}</figcaption>
      <div
        className="heatmap-grid"
        role="table"
        aria-label={title}
        style={{
          gridTemplateColumns: `minmax(4rem, max-content) repeat(${labels.length}, minmax(2.4rem, 1fr))`,
        }}
      >
        <div role="row" className="heatmap-row">
          <span role="columnheader" className="heatmap-corner" />
          {labels.map((label) => (
            <span role="columnheader" key={label} className="heatmap-column-label" title={label}>
              {label}
            </span>
          ))}
        </div>
        {labels.map((rowLabel, i) => (
          <div role="row" key={rowLabel} className="heatmap-row">
            <span role="rowheader" className="heatmap-row-label" title={rowLabel}>
              {rowLabel}
            </span>
            {labels.map((columnLabel, j) => {
              const value = values[i]?.[j] ?? null;
              return (
                <span
                  role="cell"
                  key={columnLabel}
                  className="heatmap-cell matrix-cell"
                  style={
                    value === null
                      ? undefined
                      : { backgroundColor: cellColour(value, scale), color: cellTextColour(value, scale) }
                  }
                  title={`${rowLabel} × ${columnLabel}: ${value === null ? 'undefined' : value.toFixed(3)}`}
                >
                  {value === null ? '' : value.toFixed(2)}
                </span>
              );
            })}
          </div>
        ))}
      </div>
    </figure>
  );
}
