import { HeadlinePanel } from './HeadlinePanel';
import { MarginalOverlayPanel } from './MarginalOverlayPanel';
import { PairHeatmapPanel } from './PairHeatmapPanel';
import type { ResultsPanel } from './panel-types';

/** The Results dashboard, in display order. Add a metric = add an entry here (see panel-types.ts). */
export const RESULTS_PANELS: readonly ResultsPanel[] = [
  {
    id: 'headline',
    title: 'Headline',
    caption:
      'TVD is half the summed absolute difference of shares: 0 means the marginals match exactly, 1 that they do not overlap. Lower is better.',
    forDataHolder: true,
    isAvailable: () => true,
    Component: HeadlinePanel,
    wide: true,
  },
  {
    id: 'marginals',
    title: 'Each column: real vs synthetic',
    caption:
      'Good: the two bars of every cell have about the same height (numeric columns in 10 equal-width bins).',
    forDataHolder: true,
    isAvailable: (run) => run.summary.comparison.overlays.length > 0,
    Component: MarginalOverlayPanel,
    wide: true,
  },
  {
    id: 'pair-heatmap',
    title: 'Two columns together',
    caption:
      'Good: both grids show the same pattern of dark and light cells, so the relation between the columns survived.',
    forDataHolder: true,
    isAvailable: (run) => run.configuration.schema.columns.length >= 2,
    Component: PairHeatmapPanel,
    wide: true,
  },
];
