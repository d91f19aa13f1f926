import { useCallback, useRef, useState } from 'react';
import { dataSession } from '../../services/workers';

export const PREVIEW_PAGE_SIZE = 200;
/** At most this many pages stay cached on the page (200 rows each); older ones are dropped. */
const MAX_CACHED_PAGES = 40;

interface PageCache {
  datasetId: string;
  pages: Map<number, string[][]>;
  inFlight: Set<number>;
}

/**
 * Rows of the loaded file for the virtualised preview, fetched from the data worker a page at a
 * time as they scroll into view. Only a few thousand rows are ever held on the page, whatever the
 * file size. `rowAt(i)` is undefined until its page arrives.
 */
export function useRowPages(datasetId: string) {
  const cacheRef = useRef<PageCache>({ datasetId, pages: new Map(), inFlight: new Set() });
  const [, setVersion] = useState(0);
  if (cacheRef.current.datasetId !== datasetId) {
    cacheRef.current = { datasetId, pages: new Map(), inFlight: new Set() };
  }

  const requestRange = useCallback(
    (firstRow: number, lastRow: number) => {
      const cache = cacheRef.current;
      if (cache.datasetId !== datasetId) return;
      const firstPage = Math.floor(firstRow / PREVIEW_PAGE_SIZE);
      const lastPage = Math.floor(lastRow / PREVIEW_PAGE_SIZE);
      for (let page = firstPage; page <= lastPage; page++) {
        if (cache.pages.has(page) || cache.inFlight.has(page)) continue;
        cache.inFlight.add(page);
        dataSession.worker
          .previewRows(page * PREVIEW_PAGE_SIZE, PREVIEW_PAGE_SIZE)
          .then((rows) => {
            if (cacheRef.current !== cache) return;
            cache.pages.set(page, rows);
            while (cache.pages.size > MAX_CACHED_PAGES)
              cache.pages.delete(cache.pages.keys().next().value as number);
            setVersion((v) => v + 1);
          })
          .catch(() => {
            // The dataset was replaced while the page was on its way; the new one is fetched instead.
          })
          .finally(() => cache.inFlight.delete(page));
      }
    },
    [datasetId],
  );

  const rowAt = (index: number): string[] | undefined =>
    cacheRef.current.pages.get(Math.floor(index / PREVIEW_PAGE_SIZE))?.[index % PREVIEW_PAGE_SIZE];

  return { requestRange, rowAt };
}
