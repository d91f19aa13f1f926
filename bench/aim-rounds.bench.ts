// Where an AIM run spends its time, round by round, on kernlab's `income` (exported by Rscript at
// bench time). Same settings and seed as one aim-error-curve trial (seed "aim/<ε>/<trial>", δ = 1e−9).
// Times calibrations of the model and the candidates' marginals by wrapping CliqueTreeModel's
// `calibrate` and `marginalsOf`; the rest of a round is the descent's other work, the junction trees
// of the size filter, selection and noise. One JSON line per round on stderr (printed when the round's
// marginal is chosen: it covers the previous refit and this round's scoring), ONE JSON object on stdout
// at the end, or when stopped after AIM_ROUNDS_STOP_AFTER rounds.
// Env: AIM_ROUNDS_EPSILON (10), AIM_ROUNDS_TRIAL (0), AIM_ROUNDS_MAX_ITERS (200), AIM_ROUNDS_MODEL_MB
// (80), AIM_ROUNDS_STOP_AFTER (no limit), AIM_ROUNDS_SAMPLING (the mechanism's default; `round` for the
// curve's points measured before `balanced` became the default).
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { CliqueTreeModel } from '../src/core/models/pgm/clique-tree-model';
import { getMechanism } from '../src/core/mechanisms/registry';
import { resolveParams } from '../src/core/mechanisms/params';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { loadKernlabIncome, workloadError } from './pgm-bench-data';

const EPSILON = process.env.AIM_ROUNDS_EPSILON ?? '10';
const TRIAL = Number(process.env.AIM_ROUNDS_TRIAL ?? 0);
const MAX_ITERS = Number(process.env.AIM_ROUNDS_MAX_ITERS ?? 200);
const MODEL_MB = Number(process.env.AIM_ROUNDS_MODEL_MB ?? 80);
const STOP_AFTER = Number(process.env.AIM_ROUNDS_STOP_AFTER ?? Infinity);

const income = loadKernlabIncome();
if ('unavailable' in income) {
  console.log(JSON.stringify({ bench: 'aim-rounds', unavailable: income.unavailable }));
  process.exit(0);
}

const totals = { calibrations: 0, calibrateMs: 0, modelCells: 0, marginals: 0, eliminated: 0, marginalMs: 0 };
const prototype = CliqueTreeModel.prototype;
const calibrate = prototype.calibrate;
prototype.calibrate = function (this: CliqueTreeModel, ...args: Parameters<typeof calibrate>) {
  const start = performance.now();
  const out = calibrate.apply(this, args);
  totals.calibrateMs += performance.now() - start;
  totals.calibrations++;
  totals.modelCells = this.cliqueCells.reduce((a, b) => a + b, 0);
  return out;
};
const marginalsOf = prototype.marginalsOf;
prototype.marginalsOf = function (this: CliqueTreeModel, marginals: readonly Float64Array[]) {
  const query = marginalsOf.call(this, marginals);
  return (attrs: readonly number[]) => {
    const start = performance.now();
    const out = query(attrs);
    totals.marginalMs += performance.now() - start;
    totals.marginals++;
    if (this.cliqueContaining(attrs) < 0) totals.eliminated++;
    return out;
  };
};

const mechanism = getMechanism('aim')!;
const params = resolveParams(mechanism, {
  maxModelSize: MODEL_MB,
  maxIters: MAX_ITERS,
  ...(process.env.AIM_ROUNDS_SAMPLING ? { sampling: process.env.AIM_ROUNDS_SAMPLING } : {}),
});
const signal = { aborted: false };
const start = performance.now();
const cpuStart = process.cpuUsage();
/** Processor seconds of this process since the run started (user + system). */
const cpuSeconds = (): number => {
  const used = process.cpuUsage(cpuStart);
  return (used.user + used.system) / 1e6;
};
let previous = { ...totals, at: start, cpu: 0 };
let round = 0;
const summary = (): Record<string, unknown> => ({
  bench: 'aim-rounds',
  epsilon: Number(EPSILON),
  seed: `aim/${EPSILON}/${TRIAL}`,
  params: { maxModelSize: MODEL_MB, maxIters: MAX_ITERS },
  seconds: Number(((performance.now() - start) / 1000).toFixed(1)),
  cpuSeconds: Number(cpuSeconds().toFixed(1)),
  loadAverage: Number(loadavg()[0]!.toFixed(1)),
  roundsStarted: round,
  calibrations: totals.calibrations,
  calibrateSeconds: Number((totals.calibrateMs / 1000).toFixed(1)),
  candidateMarginals: totals.marginals,
  eliminated: totals.eliminated,
  marginalSeconds: Number((totals.marginalMs / 1000).toFixed(1)),
  lastModelCells: totals.modelCells,
});
try {
  const release = await mechanism.run(income.table, income.schema, params, {
    n: income.table.nRows,
    schema: income.schema,
    epsilon: EPSILON,
    delta: '1e-9',
    releases: 1,
    seeded: true,
    rng: new SeededRng(`aim/${EPSILON}/${TRIAL}`),
    progress: (_fraction, phase) => {
      if (!phase?.startsWith('adaptive')) return;
      const now = performance.now();
      round++;
      const line = {
        round,
        seconds: Number(((now - previous.at) / 1000).toFixed(2)),
        cpuSeconds: Number((cpuSeconds() - previous.cpu).toFixed(2)),
        modelCells: totals.modelCells,
        calibrations: totals.calibrations - previous.calibrations,
        calibrateSeconds: Number(((totals.calibrateMs - previous.calibrateMs) / 1000).toFixed(2)),
        marginals: totals.marginals - previous.marginals,
        eliminated: totals.eliminated - previous.eliminated,
        marginalSeconds: Number(((totals.marginalMs - previous.marginalMs) / 1000).toFixed(2)),
      };
      process.stderr.write(`${JSON.stringify(line)}\n`);
      previous = { ...totals, at: now, cpu: cpuSeconds() };
      if (round >= STOP_AFTER) signal.aborted = true;
    },
    signal,
  });
  const error = workloadError(income.table, release.datasets[0]!, income.schema, 3).error;
  console.log(
    JSON.stringify({
      ...summary(),
      finished: true,
      error: Number(error.toFixed(4)),
      rounds: (release.diagnostics.rounds as unknown[]).length,
      iterations: release.diagnostics.iterations,
      modelCells: release.diagnostics.modelCells,
    }),
  );
} catch (error) {
  if (!signal.aborted) throw error;
  console.log(JSON.stringify({ ...summary(), finished: false, stoppedAfterRounds: round }));
}
