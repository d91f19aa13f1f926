/**
 * A chart's numbers as a table behind a "Show the numbers" toggle: the text alternative of a chart
 * whose values are too many for a caption, readable by screen readers and by anyone who wants them.
 */
export function ChartNumbers({
  caption,
  headers,
  rows,
}: {
  caption: string;
  headers: string[];
  rows: (string | number)[][];
}) {
  return (
    <details className="chart-numbers">
      <summary>Show the numbers</summary>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={caption}>
        <table className="metric-table">
          <caption>{caption}</caption>
          <thead>
            <tr>
              {headers.map((header) => (
                <th key={header} scope="col">
                  {header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row, i) => (
              <tr key={i}>
                {row.map((cell, j) =>
                  j === 0 ? (
                    <th key={j} scope="row">
                      {cell}
                    </th>
                  ) : (
                    <td key={j}>{cell}</td>
                  ),
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
