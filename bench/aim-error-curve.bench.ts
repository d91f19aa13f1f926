// The AIM paper's workload-error-vs-ε curve (McKenna et al. 2022, §6, Fig. 2: all 3-way marginals),
// reproduced on kernlab's `income` (8,993 rows × 14 categorical columns, 9 with missing values;
// exported by Rscript at bench time). Prints ONE JSON object.
// For each ε and trial: aim (maxModelSize 80 MB as in the paper), mst and dp-marginals at δ = 1e−9,
// each seeded with "<mechanism>/<ε>/<trial>"; the error is the mean over the 364 3-way marginals of
// ‖M(D) − M(D̂)‖₁/n, the TVD half of it. Reported per ε and mechanism: mean and sd over trials, seconds.
// Env: AIM_CURVE_EPSILONS (default 0.01,0.03,0.1,0.3,1,3,10,30,100), AIM_CURVE_TRIALS (5),
// AIM_CURVE_MODEL_MB (80), AIM_CURVE_MAX_ITERS (AIM's default, 1,000 per round: its time control),
// AIM_CURVE_ROUNDS (AIM's `rounds`; its default when unset), AIM_CURVE_MECHANISMS (aim,mst,dp-marginals),
// AIM_CURVE_MATCHED=1: the matched series, bench only and not reachable from the product: aim and mst
// run with an accountant holding twice the ρ of (ε, δ), so every histogram's σ is private-pgm's under
// add/remove neighbours at ρ (its exponential mechanisms keep sensitivity 2, so selection is √2 less sharp
// than private-pgm's); seeds "matched/<mechanism>/<ε>/<trial>".
import { performance } from 'node:perf_hooks';
import { runAim } from '../src/core/mechanisms/aim';
import { zcdpAccountantFor } from '../src/core/mechanisms/common/graphical-models/pgm-budget';
import { runMst } from '../src/core/mechanisms/mst/run-mst';
import { getMechanism } from '../src/core/mechanisms/registry';
import { ZcdpAccountant } from '../src/core/privacy/zcdp-accountant';
import { parseRational, Rational } from '../src/core/rng/rational';
import { resolveParams } from '../src/core/mechanisms/params';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { loadKernlabIncome, workloadError } from './pgm-bench-data';

const EPSILONS = (process.env.AIM_CURVE_EPSILONS ?? '0.01,0.03,0.1,0.3,1,3,10,30,100').split(',');
const TRIALS = Number(process.env.AIM_CURVE_TRIALS ?? 5);
const MODEL_MB = Number(process.env.AIM_CURVE_MODEL_MB ?? 80);
const MATCHED = process.env.AIM_CURVE_MATCHED === '1';
const MECHANISMS = (process.env.AIM_CURVE_MECHANISMS ?? (MATCHED ? 'aim,mst' : 'aim,mst,dp-marginals')).split(
  ',',
);
const AIM_PARAMS = {
  maxModelSize: MODEL_MB,
  ...(process.env.AIM_CURVE_MAX_ITERS ? { maxIters: Number(process.env.AIM_CURVE_MAX_ITERS) } : {}),
  ...(process.env.AIM_CURVE_ROUNDS ? { rounds: Number(process.env.AIM_CURVE_ROUNDS) } : {}),
};

const income = loadKernlabIncome();
if ('unavailable' in income) {
  console.log(JSON.stringify({ bench: 'aim-error-curve', unavailable: income.unavailable }));
  process.exit(0);
}
const { table, schema } = income;
const rows: Record<string, unknown>[] = [];
for (const epsilon of EPSILONS) {
  const row: Record<string, unknown> = { epsilon: Number(epsilon) };
  for (const id of MECHANISMS) {
    const mechanism = getMechanism(id)!;
    const params = resolveParams(mechanism, id === 'aim' ? AIM_PARAMS : {});
    const errors: number[] = [];
    let seconds = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const start = performance.now();
      const ctx = {
        n: table.nRows,
        schema,
        epsilon,
        delta: id === 'dp-marginals' ? 0 : '1e-9',
        releases: 1,
        seeded: true,
        rng: new SeededRng(`${MATCHED ? 'matched/' : ''}${id}/${epsilon}/${trial}`),
        progress: () => {},
        signal: { aborted: false },
      };
      let release;
      if (MATCHED) {
        const run = id === 'aim' ? runAim : id === 'mst' ? runMst : undefined;
        if (!run) throw new Error(`no matched series for ${id}`);
        const rho = zcdpAccountantFor(ctx, id).rhoBudget;
        release = await run(
          table,
          schema,
          params,
          ctx,
          new ZcdpAccountant(rho.mul(Rational.of(2)), parseRational('1e-9')),
        );
      } else {
        release = await mechanism.run(table, schema, params, ctx);
      }
      seconds += (performance.now() - start) / 1000;
      errors.push(workloadError(table, release.datasets[0]!, schema, 3).error);
    }
    const mean = errors.reduce((a, b) => a + b, 0) / errors.length;
    const sd = Math.sqrt(errors.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, errors.length - 1));
    row[id] = {
      error: Number(mean.toFixed(4)),
      sd: Number(sd.toFixed(4)),
      tvd: Number((mean / 2).toFixed(4)),
      seconds: Number((seconds / TRIALS).toFixed(1)),
    };
  }
  rows.push(row);
  process.stderr.write(`${JSON.stringify(row)}\n`);
}
console.log(
  JSON.stringify({
    bench: 'aim-error-curve',
    data: `kernlab income, ${table.nRows} rows × ${table.columns.length} columns`,
    delta: 1e-9,
    trials: TRIALS,
    ...(MATCHED ? { series: 'matched: σ of add/remove at ρ (bench only)' } : {}),
    aimParams: AIM_PARAMS,
    workload: '364 3-way marginals, missing values as a level',
    rows,
  }),
);
