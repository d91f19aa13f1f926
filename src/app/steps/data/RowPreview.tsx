import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import type { DatasetOverview } from '../../../worker/protocol';
import { useRowPages } from './use-row-pages';

const ROW_HEIGHT = 28;
const COLUMN_WIDTH = 150;
const INDEX_WIDTH = 80;

/**
 * The loaded rows exactly as read, virtualised: only the rows in view are rendered and only
 * their pages are fetched from the data worker, so a million-row file scrolls like a small one.
 */
export function RowPreview({ dataset }: { dataset: DatasetOverview }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const { requestRange, rowAt } = useRowPages(dataset.datasetId);
  const virtualizer = useVirtualizer({
    count: dataset.nRows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    if (dataset.nRows > 0) requestRange(first, last);
  }, [first, last, requestRange, dataset.nRows]);

  const width = INDEX_WIDTH + COLUMN_WIDTH * dataset.header.length;
  return (
    <div
      className="row-preview"
      ref={scrollRef}
      role="table"
      aria-label={`Rows of ${dataset.fileName}`}
      aria-rowcount={dataset.nRows + 1}
      tabIndex={0}
      data-testid="row-preview"
    >
      <div role="rowgroup" className="row-preview-head" style={{ width }}>
        <div role="row" aria-rowindex={1} className="preview-row">
          <span role="columnheader" className="preview-index">
            row
          </span>
          {dataset.header.map((name) => (
            <span role="columnheader" key={name} className="preview-cell" title={name}>
              {name}
            </span>
          ))}
        </div>
      </div>
      <div role="rowgroup" style={{ height: virtualizer.getTotalSize(), width, position: 'relative' }}>
        {items.map((item) => {
          const row = rowAt(item.index);
          return (
            <div
              role="row"
              aria-rowindex={item.index + 2}
              key={item.key}
              className="preview-row"
              style={{
                position: 'absolute',
                top: 0,
                transform: `translateY(${item.start}px)`,
                height: ROW_HEIGHT,
              }}
            >
              <span role="rowheader" className="preview-index">
                {item.index + 1}
              </span>
              {dataset.header.map((name, c) => (
                <span role="cell" key={name} className="preview-cell">
                  {row === undefined ? '…' : row[c]}
                </span>
              ))}
            </div>
          );
        })}
      </div>
    </div>
  );
}
