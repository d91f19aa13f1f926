import { CorrelationPanel } from './CorrelationPanel';
import { DataHolderWarningsPanel, dataHolderWarningsOf } from './DataHolderWarningsPanel';
import { DisclosurePanel } from './DisclosurePanel';
import { DistinguishingGamePanel } from './DistinguishingGamePanel';
import { HeadlinePanel } from './HeadlinePanel';
import { InferencePanel } from './InferencePanel';
import { MarginalOverlayPanel } from './MarginalOverlayPanel';
import { McmcPanel, mcmcDiagnosticsOf } from './McmcPanel';
import { MlEfficacyPanel } from './MlEfficacyPanel';
import { PairHeatmapPanel } from './PairHeatmapPanel';
import { PerColumnPanel } from './PerColumnPanel';
import { PmsePanel } from './PmsePanel';
import { RegressionPanel } from './RegressionPanel';
import { TvdOrdersPanel } from './TvdOrdersPanel';
import type { ResultsPanel } from './panel-types';

/** The Results dashboard, in display order. Add a metric = add an entry here (see panel-types.ts). */
export const RESULTS_PANELS: readonly ResultsPanel[] = [
  {
    id: 'headline',
    title: 'Headline',
    caption:
      'TVD is half the summed absolute difference of shares: 0 means the marginals match exactly, 1 that they do not overlap; lower is better. S_pMSE: below 10 is acceptable, below 3 good (synthpop); the k-marginal score is 1000 at best.',
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
  {
    id: 'data-holder-warnings',
    title: 'Warnings from the real data',
    caption:
      'Checks the mechanism made on the real data that failed; good: no warning (this panel is then not shown).',
    forDataHolder: true,
    isAvailable: (run) => dataHolderWarningsOf(run).length > 0,
    Component: DataHolderWarningsPanel,
    wide: true,
  },
  {
    id: 'mcmc',
    title: 'MCMC convergence',
    caption:
      'Good: every R̂ below 1.1, acceptance rates roughly 20–50%, and the chains’ traces overlap after burn-in.',
    forDataHolder: true,
    isAvailable: (run) => mcmcDiagnosticsOf(run) !== null,
    Component: McmcPanel,
    wide: true,
  },
  {
    id: 'pmse',
    title: 'Propensity score (pMSE)',
    caption:
      'A CART classifier tries to tell real from synthetic rows. Good: pMSE near 0 and S_pMSE below 10, better below 3 (synthpop); on this scale synthetic rows drawn afresh from the real distribution score about 2.',
    forDataHolder: true,
    isAvailable: (_run, evaluation) => evaluation !== null,
    Component: PmsePanel,
  },
  {
    id: 'tvd-orders',
    title: 'Marginals of 1, 2 and 3 columns',
    caption:
      'Good: low mean TVD at every order; TVD growing quickly with the order means relations between columns were lost.',
    forDataHolder: true,
    isAvailable: (_run, evaluation) => evaluation !== null,
    Component: TvdOrdersPanel,
  },
  {
    id: 'correlation',
    title: 'Correlations',
    caption: 'Good: the synthetic matrix looks like the real one and the difference matrix is pale.',
    forDataHolder: true,
    isAvailable: (_run, evaluation) => evaluation !== null && evaluation.columns.length >= 2,
    Component: CorrelationPanel,
    wide: true,
  },
  {
    id: 'per-column',
    title: 'Column by column',
    caption: 'Good: TVD, KS and Wasserstein distance all near 0 for every column.',
    forDataHolder: true,
    isAvailable: (_run, evaluation) => evaluation !== null,
    Component: PerColumnPanel,
  },
  {
    id: 'distinguishing-game',
    title: 'Distinguishing game',
    caption:
      'A forest is trained to tell real rows from synthetic ones. Good: accuracy near 0.5 (a coin flip).',
    forDataHolder: true,
    isAvailable: (_run, evaluation) => evaluation?.distinguishingGame != null,
    Component: DistinguishingGamePanel,
  },
  {
    id: 'regression',
    title: 'Regression comparison',
    caption:
      'Good: synthetic coefficients inside the real confidence intervals (standardised difference within ±2, interval overlap near 1).',
    forDataHolder: true,
    isAvailable: (run) => run.configuration.schema.columns.length >= 2,
    Component: RegressionPanel,
    wide: true,
  },
  {
    id: 'inference',
    title: 'Inference from the releases',
    caption:
      'What a recipient of the releases can estimate, combined over them by the DIPS rules. Good: the interval covers the real-data estimate and is not much wider than its interval.',
    forDataHolder: true,
    isAvailable: (run) => run.configuration.releases >= 2,
    Component: InferencePanel,
    wide: true,
  },
  {
    id: 'ml-efficacy',
    title: 'Machine-learning efficacy',
    caption:
      'Models trained on synthetic data predict the kept-back real rows. Good: accuracy and AUC close to the models trained on real rows, high agreement.',
    forDataHolder: true,
    isAvailable: (run) => run.configuration.holdoutShare > 0,
    Component: MlEfficacyPanel,
    wide: true,
  },
  {
    id: 'disclosure',
    title: 'Disclosure sanity checks',
    caption:
      'Good: no more synthetic rows equal to real ones than real rows equal to each other, and synthetic rows no closer to real ones than real rows are to each other.',
    forDataHolder: true,
    isAvailable: (_run, evaluation) => evaluation?.disclosure != null,
    Component: DisclosurePanel,
    wide: true,
  },
];
