import { SYNTHPOP_CART_DEFAULTS } from '../../models/cart/cart-types';
import { meanOfFinite } from '../../stats/mean';
import { computePmseReleases, type PmseOptions } from '../pmse';
import { PMSE_MAX_ROWS_PER_SIDE, pmseRows, pmseStandardError } from '../pmse-subsample';
import { propensityHistogram } from '../propensity-histogram';
import type { PmseSection } from '../utility-report';
import { defineMetricStage } from './stage';

/** The names in any of `lists`, in `order` (names not in `order` last, in first-seen order). */
function unionInColumnOrder(order: string[], lists: string[][]): string[] {
  const all = new Set(lists.flat());
  return [...order.filter((name) => all.has(name)), ...[...all].filter((name) => !order.includes(name))];
}

/**
 * pMSE and S_pMSE per release (../pmse.ts; Snoke et al. 2018: pMSE = (1/N) Σ (p̂_i − c)², c = n_s / N,
 * S_pMSE = pMSE / its null expectation), with synthpop's utility.gen defaults (CART with rpart's
 * settings and 50 label permutations, or logit with two-way interactions), the propensities'
 * histogram, and uniform subsamples with their standard error above maxRowsPerSide rows per side.
 *
 * With the null means computed elsewhere (options.pmse.nullMeans) the stage draws nothing from the
 * generator, so it runs last without changing any number: the null's other thread then keeps
 * fitting refits while every other metric is computed here, and this one takes the refits still
 * left at the end.
 */
export const pmseStage = defineMetricStage({
  id: 'pmse',
  label: 'Propensity score (pMSE)',
  weight: 4,
  section: 'pmse',
  enabled: () => true,
  runsLast: (options) => options.pmse?.nullMeans !== undefined,
  run({ real, options, rng, perRelease }): PmseSection {
    const given = options.pmse?.nullMeans;
    const pmseOptions: PmseOptions = {
      model: options.pmse?.model ?? 'cart',
      cart: options.pmse?.cart ?? SYNTHPOP_CART_DEFAULTS,
      permutations: options.pmse?.permutations ?? 50,
      maxOrder: options.pmse?.maxOrder ?? 1,
      ...(options.pmse?.logit ? { logit: options.pmse.logit } : {}),
      keepPropensities: true,
    };
    const maxRows = options.pmse?.maxRowsPerSide ?? PMSE_MAX_ROWS_PER_SIDE;
    const subsamples: ({ realRows: number; synthRows: number; standardError: number } | undefined)[] = [];
    const results = perRelease((synth, j) => {
      const nullMean = typeof given === 'function' ? given(j) : given?.[j];
      const releaseOptions = nullMean === undefined ? pmseOptions : { ...pmseOptions, nullMean };
      // A null mean from elsewhere belongs to the whole tables; otherwise large tables are subsampled.
      const rows =
        nullMean === undefined ? pmseRows(real, synth, maxRows, rng) : { real, synth, subsample: null };
      const result = computePmseReleases(rows.real, [rows.synth], releaseOptions, rng).perRelease[0]!;
      subsamples.push(
        rows.subsample === null
          ? undefined
          : { ...rows.subsample, standardError: pmseStandardError(result.propensities!) },
      );
      return result;
    });
    const ratios = results.map((r) => r.ratio);
    return {
      model: pmseOptions.model,
      perRelease: results.map((r, j) => ({
        value: r.value,
        ratio: r.ratio,
        nullMean: r.nullMean,
        rawRatio: r.rawRatio ?? null,
        k: r.k ?? null,
        leaves: r.leaves ?? null,
        converged: r.converged ?? null,
        extremePropensities: r.model === 'logit' ? (r.nExtreme ?? 0) : null,
        propensities: propensityHistogram(r.propensities!.real, r.propensities!.synth),
        ...(subsamples[j] === undefined ? {} : { subsample: subsamples[j] }),
      })),
      mean: {
        value: results.reduce((s, r) => s + r.value, 0) / results.length,
        ratio: ratios.every((v) => v !== null) ? meanOfFinite(ratios) : null,
      },
      droppedConstant: unionInColumnOrder(
        real.columns.map((c) => c.name),
        results.map((r) => r.droppedConstant),
      ),
      settings:
        pmseOptions.model === 'cart'
          ? { cart: { ...pmseOptions.cart! }, permutations: pmseOptions.permutations! }
          : { maxOrder: pmseOptions.maxOrder! },
    };
  },
});
