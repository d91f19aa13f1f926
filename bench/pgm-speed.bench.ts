// Speed of the graphical-model mechanisms. Prints ONE JSON object.
// - mst and aim (defaults: 20 MB, 16·d rounds) on kernlab's `income` (8,993 rows × 14 categorical
//   columns, exported by Rscript at bench time) at ε = 1, δ = 1e−9, seeded: seconds of run() and the
//   mean TVD of the 1-, 2- and 3-way marginals (missing values as a level);
// - one mirror-descent iteration on a junction tree of ≈ 22,000 cells over income's domain
//   (a chain of 4-way cliques: 23,528 cells, near the 22,303 of private-pgm's adult): wall and
//   process CPU milliseconds per iteration (the CPU time is less inflated on a shared machine);
// - 10^6 rows drawn ('round') from a model on a random 80-edge tree of 5-level attributes.
// Env: PGM_BENCH_SKIP_AIM=1 skips the AIM run; PGM_BENCH_ONLY=descent runs the descent iteration alone.
import { performance } from 'node:perf_hooks';
import { aim } from '../src/core/mechanisms/aim';
import { CliqueTreeModel } from '../src/core/models/pgm/clique-tree-model';
import { countCells } from '../src/core/models/pgm/factor-index';
import { buildJunctionTree } from '../src/core/models/pgm/junction-tree';
import { estimateByMirrorDescent } from '../src/core/models/pgm/mirror-descent';
import { sampleRows } from '../src/core/models/pgm/sample-model';
import { mst } from '../src/core/mechanisms/mst';
import { resolveParams } from '../src/core/mechanisms/params';
import type { Mechanism } from '../src/core/mechanisms/types';
import { SeededRng } from '../src/core/rng/seeded-rng';
import { uniformInt } from '../src/core/rng/uniform-int';
import type { Schema, Table } from '../src/core/table/types';
import { encode, loadKernlabIncome, workloadError } from './pgm-bench-data';

async function timeMechanism(mechanism: Mechanism, table: Table, schema: Schema) {
  const params = resolveParams(mechanism, {});
  const start = performance.now();
  const release = await mechanism.run(table, schema, params, {
    n: table.nRows,
    schema,
    epsilon: '1',
    delta: '1e-9',
    releases: 1,
    seeded: true,
    rng: new SeededRng(2022),
    progress: () => {},
    signal: { aborted: false },
  });
  const seconds = (performance.now() - start) / 1000;
  const synthetic = release.datasets[0]!;
  const tvd = [1, 2, 3].map((k) => workloadError(table, synthetic, schema, k).tvd);
  return {
    seconds: Number(seconds.toFixed(2)),
    meanTvd: {
      '1': Number(tvd[0]!.toFixed(4)),
      '2': Number(tvd[1]!.toFixed(4)),
      '3': Number(tvd[2]!.toFixed(4)),
    },
    modelCells: release.diagnostics.modelCells,
    iterations: release.diagnostics.iterations,
    ...(release.diagnostics.rounds ? { rounds: (release.diagnostics.rounds as unknown[]).length } : {}),
  };
}

function descentIteration(table: Table, schema: Schema) {
  const { levels, sizes } = encode(table, schema);
  const d = sizes.length;
  const cliques: number[][] = [];
  for (let a = 0; a + 3 < d; a++) cliques.push([a, a + 1, a + 2, a + 3]);
  const tree = buildJunctionTree(d, sizes, cliques);
  const model = new CliqueTreeModel(tree, sizes, table.nRows);
  const measurements = tree.cliques.map((clique) => {
    const y = countCells(levels, clique, sizes);
    return { attrs: clique, y, weight: new Float64Array(y.length).fill(1 / 100) };
  });
  const iterations = 200;
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  const estimate = estimateByMirrorDescent(model, measurements, { iterations });
  const ms = (performance.now() - start) / estimate.iterations;
  const cpu = process.cpuUsage(cpuStart);
  const cpuMs = (cpu.user + cpu.system) / 1000 / estimate.iterations;
  // The loss after the iterations: equal across versions of the engine up to rounding.
  return {
    cells: tree.cells,
    iterations: estimate.iterations,
    msPerIteration: Number(ms.toFixed(3)),
    cpuMsPerIteration: Number(cpuMs.toFixed(3)),
    loss: Number(estimate.loss.toPrecision(12)),
  };
}

function sampleMillionRows() {
  const rng = new SeededRng('tree');
  const d = 81;
  const sizes = new Array<number>(d).fill(5);
  const edges = Array.from({ length: d - 1 }, (_, i) =>
    [uniformInt(rng, i + 1), i + 1].sort((x, y) => x - y),
  );
  const model = new CliqueTreeModel(buildJunctionTree(d, sizes, edges), sizes, 1_000_000);
  const theta = model.cliqueCells.map((cells) =>
    Float64Array.from({ length: cells }, () => 2 * rng.nextFloat()),
  );
  const marginals = model.calibrate(theta);
  const seconds: Record<string, number> = {};
  for (const rule of ['round', 'balanced'] as const) {
    const start = performance.now();
    sampleRows(rng, model, marginals, 1_000_000, rule);
    seconds[rule] = Number(((performance.now() - start) / 1000).toFixed(2));
  }
  return { edges: d - 1, rows: 1_000_000, seconds };
}

const ONLY_DESCENT = process.env.PGM_BENCH_ONLY === 'descent';
const income = loadKernlabIncome();
const result: Record<string, unknown> = { bench: 'pgm-speed' };
if ('unavailable' in income) {
  result.income = income.unavailable;
} else {
  result.income = { rows: income.table.nRows, columns: income.table.columns.length };
  if (!ONLY_DESCENT) {
    result.mst = await timeMechanism(mst, income.table, income.schema);
    if (process.env.PGM_BENCH_SKIP_AIM !== '1')
      result.aim = await timeMechanism(aim, income.table, income.schema);
  }
  result.descentIteration = descentIteration(income.table, income.schema);
}
if (!ONLY_DESCENT) result.sampleFromTree = sampleMillionRows();
result.peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
console.log(JSON.stringify(result));
