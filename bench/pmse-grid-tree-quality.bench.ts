// Speed of the pMSE mechanism's quality search (grid-tree-quality.ts): CPU time of `evaluate` on the
// paper's design (n = 5,000, 2 numeric columns) for the depth-2 grid tree (G = 32, the default) and the
// depth-1 exhaustive stump, on synthetic tables drawn from parameters near the truth as a chain visits
// them. Prints one JSON object with the user+system CPU milliseconds per call and the load average.
//
//   npx tsx bench/pmse-grid-tree-quality.bench.ts [--calls=400] [--seed=1]
import { loadavg } from 'node:os';
import {
  exhaustiveStumpSettings,
  makeGridTreeQuality,
} from '../src/core/mechanisms/pmse-mechanism/grid-tree-quality';
import { GRID_TREE_SIZE } from '../src/core/mechanisms/pmse-mechanism/pmse-params';
import { makeNormalSampler, SeededRng } from '../src/core/rng';
import { cliInteger, PAPER_N, simulatePaperData } from './pmse-mechanism-paper-setup';

const calls = cliInteger('calls', 400);
const seed = process.argv.find((a) => a.startsWith('--seed='))?.slice('--seed='.length) ?? '1';
const rng = new SeededRng(`grid-tree-bench-${seed}`);
const real = simulatePaperData(PAPER_N, rng);
const normal = makeNormalSampler(rng);
// Synthetic tables from the paper's model at parameters jittered around the truth.
const tables = Array.from({ length: 20 }, () => {
  const shift = normal(0, 0.2);
  const [x1, x2] = simulatePaperData(PAPER_N, rng);
  return [x1.map((x) => x + shift), x2.map((x) => x * (1 + shift / 4))];
});

function cpuMsPerCall(settings: Parameters<typeof makeGridTreeQuality>[2]): {
  msPerCall: number;
  checksum: number;
} {
  const quality = makeGridTreeQuality(real, PAPER_N, settings);
  for (let i = 0; i < 20; i++) quality.evaluate(tables[i % tables.length]!); // warm-up
  const start = process.cpuUsage();
  let checksum = 0;
  for (let i = 0; i < calls; i++) checksum += quality.evaluate(tables[i % tables.length]!);
  const used = process.cpuUsage(start);
  return { msPerCall: Math.round(((used.user + used.system) / 1000 / calls) * 1000) / 1000, checksum };
}

const gridTree = cpuMsPerCall({ depth: 2, gridSize: GRID_TREE_SIZE });
const stump = cpuMsPerCall(exhaustiveStumpSettings(PAPER_N));
console.log(
  JSON.stringify({
    n: PAPER_N,
    calls,
    gridTreeCpuMsPerCall: gridTree.msPerCall,
    exhaustiveStumpCpuMsPerCall: stump.msPerCall,
    checksum: [gridTree.checksum, stump.checksum],
    loadavg: loadavg().map((x) => Math.round(x * 100) / 100),
  }),
);
