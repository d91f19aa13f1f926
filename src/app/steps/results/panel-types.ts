import type { UtilityReport } from '../../../core/metrics/evaluate';
import type { ComponentType } from 'react';
import type { FinishedRun } from '../../state/results-store';

/**
 * A Results panel. The Results step lays out whatever panels are listed in results-panels.ts,
 * so a new metric (pMSE, propensity histogram, correlation heatmaps, …) is a new entry there
 * and a component, without reshaping the step.
 */
export interface ResultsPanel {
  id: string;
  title: string;
  /** One line saying what good looks like. */
  caption: string;
  /** Computed from the real data: marked "for the data holder" (everything except the claim). */
  forDataHolder: boolean;
  /** Whether the panel has something to show for this run (and evaluation). */
  isAvailable(run: FinishedRun, evaluation: UtilityReport | null): boolean;
  Component: ComponentType<{ run: FinishedRun; evaluation: UtilityReport | null }>;
  /** Wide panels span the full width of the results grid. */
  wide?: boolean;
}
