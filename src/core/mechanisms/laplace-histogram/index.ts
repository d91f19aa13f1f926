import { Accountant, type BudgetReserver } from '../../privacy/accountant';
import { standardAssumptions } from '../../privacy/assumptions';
import { parseBudget } from '../../privacy/budget';
import type { PrivacyClaim } from '../../privacy/types';
import type { Rational } from '../../rng/rational';
import type { Schema, Table } from '../../table/types';
import { throwIfAborted } from '../../table/abort';
import { planBinnedDomain, type BinnedDomain } from '../common/binned-domain';
import { describeBinnedDomain } from '../common/describe-domain';
import { releaseEpsilonForDescription } from '../common/release-epsilon';
import { tableFromCells } from '../common/decode-rows';
import { drawCellsForRows } from '../common/draw-rows';
import { cellOfEveryRow } from '../common/encode-rows';
import { formatCount } from '../common/format-count';
import { binnedDomainAssumptions } from '../common/public-assumptions';
import { countRowsPerCell } from '../common/sparse-cell-counts';
import { InputError } from '../../table/errors';
import type { Mechanism, ParamValues, PublicContext, Release, RunContext } from '../types';
import {
  makeCountNoiseSampler,
  noiseDominanceWarning,
  perturbAllCellCounts,
} from '../common/noisy-cell-counts';
import { LAPLACE_HISTOGRAM_PARAMS, laplaceHistogramSettings } from './params';

export {
  CROSS_TABULATION_SENSITIVITY_REPLACE_ONE,
  countNoiseScale,
  makeCountNoiseSampler,
  perturbAllCellCounts,
} from '../common/noisy-cell-counts';

const ID = 'laplace-histogram';

function planDomain(schema: Schema, params: ParamValues, n: number | undefined): BinnedDomain {
  return planBinnedDomain(schema, laplaceHistogramSettings(params).binning, n, true);
}

/** The domain's size and, when noise would dominate the drawn rows, a public warning (ε/M per release). */
function describeLaplaceHistogram(params: ParamValues, context: PublicContext): string[] {
  const domain = planDomain(context.schema, params, context.n);
  const lines = describeBinnedDomain(domain);
  if (lines.length === 0) return lines;
  const releaseEpsilon = releaseEpsilonForDescription(context);
  if (releaseEpsilon === null) return lines;
  return [...lines, ...noiseDominanceWarning(domain.domainCells, context.n, releaseEpsilon)];
}

/**
 * Reserves ε/M for each of the M releases (sequential composition: every release draws fresh
 * noise from the same rows) and returns the per-release budgets. Shared by claim() and run() so
 * that the claim shown before a run is exactly the one the run produces.
 */
function reserveReleaseBudgets(
  accountant: BudgetReserver,
  total: Rational,
  releases: number,
  domainCells: number,
): Rational[] {
  const perRelease = Array.from({ length: releases }, () => Accountant.split(total, releases));
  perRelease.forEach((epsilon, i) => {
    accountant.reserve(
      `noisy counts of the ${formatCount(domainCells)}-cell cross-tabulation, release ${i + 1} of ${releases}`,
      epsilon,
    );
  });
  return perRelease;
}

function assumptionsFor(domain: BinnedDomain, context: PublicContext): string[] {
  return [
    ...standardAssumptions(context.schema, context.seeded),
    ...binnedDomainAssumptions(domain.codings, context.schema),
  ];
}

function claim(params: ParamValues, context: PublicContext): PrivacyClaim {
  const budget = parseBudget(context.epsilon, context.delta);
  const domain = planDomain(context.schema, params, context.n);
  const accountant = new Accountant(budget);
  reserveReleaseBudgets(accountant, budget.epsilon, context.releases, domain.domainCells);
  return accountant.claim(assumptionsFor(domain, context));
}

/**
 * The run with the accountant made explicit. Order per the plug-in contract: validate, reserve the
 * whole budget, then touch ctx.rng. For each release: noise on every cell of the domain, repair,
 * draw n cells in proportion to the positive noisy counts, decode cells to values.
 */
export async function runLaplaceHistogram(
  table: Table,
  schema: Schema,
  params: ParamValues,
  ctx: RunContext,
  accountant: BudgetReserver = new Accountant(parseBudget(ctx.epsilon, ctx.delta)),
): Promise<Release> {
  const settings = laplaceHistogramSettings(params);
  const domain = planDomain(schema, params, ctx.n);
  if (domain.problems.length > 0) throw new InputError(`${ID} cannot run: ${domain.problems.join(' ')}`);
  if (table.nRows !== ctx.n)
    throw new Error(`${ID}: the table has ${table.nRows} rows but the context says n = ${ctx.n}.`);
  const budget = parseBudget(ctx.epsilon, ctx.delta);
  const perRelease = reserveReleaseBudgets(accountant, budget.epsilon, ctx.releases, domain.domainCells);

  const counts = countRowsPerCell(cellOfEveryRow(table, domain.codings));
  const datasets: Table[] = [];
  const positiveNoisyCells: number[] = [];
  for (let release = 0; release < ctx.releases; release++) {
    const share = (fraction: number) => (release + fraction) / ctx.releases;
    const message = `release ${release + 1} of ${ctx.releases}: noisy counts`;
    const noisy = perturbAllCellCounts(ctx.rng, counts, makeCountNoiseSampler(perRelease[release]!), {
      domainCells: domain.domainCells,
      repair: settings.repair,
      nRows: ctx.n,
      signal: ctx.signal,
      onProgress: (fraction) => ctx.progress(share(0.9 * fraction), message),
    });
    throwIfAborted(ctx.signal);
    ctx.progress(share(0.9), `release ${release + 1} of ${ctx.releases}: drawing rows`);
    const cellOfRow = drawCellsForRows(ctx.rng, ctx.n, noisy.cells, noisy.weights, domain.domainCells);
    datasets.push(tableFromCells(ctx.rng, cellOfRow, domain.codings));
    positiveNoisyCells.push(noisy.cells.length);
  }
  ctx.progress(1, 'done');
  return {
    datasets,
    claim: accountant.claim(assumptionsFor(domain, ctx)),
    diagnostics: {
      domainCells: domain.domainCells,
      levelsPerColumn: Object.fromEntries(domain.codings.map((coding) => [coding.name, coding.levels])),
      positiveNoisyCells,
    },
    dataHolderDiagnostics: {},
  };
}

/**
 * The Laplace sanitizer on the full cross-tabulation with perturbed histograms for numeric
 * columns (Bowen & Liu, DIPS comparative study §3.1.1–3.1.2 and the NP-DIPS of §4.3).
 */
export const laplaceHistogram: Mechanism = {
  id: ID,
  label: 'Laplace histogram',
  summary:
    'Exact discrete Laplace noise on every cell of the full cross-tabulation (numeric columns binned), rows drawn from the noisy counts.',
  reference:
    'Bowen & Liu, Comparative study of differentially private data synthesis methods, §3.1.1–3.1.2 (Laplace sanitizer, perturbed histogram) and §4.3',
  supports: { numeric: true, categorical: true },
  params: LAPLACE_HISTOGRAM_PARAMS,
  claim,
  describe: describeLaplaceHistogram,
  check: (schema, params, context) => planDomain(schema, params, context?.n).problems,
  run: (table, schema, params, ctx) => runLaplaceHistogram(table, schema, params, ctx),
};
