// Throughput of the exact samplers with the seeded and the crypto generator. Prints one JSON object.
// Each figure is the best of three timed runs of at least 0.3 s after a warm-up. Rates are per
// second of this process's CPU time (process.cpuUsage), which a shared, busy machine distorts far
// less than wall time; the wall-clock rate of the same runs is reported beside it. The seeded runs
// come first; the crypto runs then see call sites that have already met both generator classes, as
// a long-lived worker would. rawUint32 is the reference: the generator alone, measured in the same run.
import os from 'node:os';
import {
  CryptoRng,
  makeDiscreteGaussianSampler,
  makeDiscreteLaplaceSampler,
  parseRational,
  type Rng,
  sampleMultinomial,
  SeededRng,
} from '../src/core/rng';

const MIN_SECONDS = 0.3;
const BATCH = 100_000;

interface Rate {
  perCpuSecond: number;
  perWallSecond: number;
}

function cpuSeconds(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

function drawsPerSecond(draw: () => number): Rate {
  let sink = 0;
  for (let i = 0; i < BATCH; i++) sink += draw();
  const best: Rate = { perCpuSecond: 0, perWallSecond: 0 };
  for (let run = 0; run < 3; run++) {
    let draws = 0;
    const wallStart = performance.now();
    const cpuStart = cpuSeconds();
    let cpu = 0;
    while (cpu < MIN_SECONDS) {
      for (let i = 0; i < BATCH; i++) sink += draw();
      draws += BATCH;
      cpu = cpuSeconds() - cpuStart;
    }
    const wall = (performance.now() - wallStart) / 1000;
    best.perCpuSecond = Math.max(best.perCpuSecond, Math.round(draws / cpu));
    best.perWallSecond = Math.max(best.perWallSecond, Math.round(draws / wall));
  }
  if (Number.isNaN(sink)) throw new Error('unreachable: keeps the draws observable');
  return best;
}

function measureGenerator(rng: Rng): Record<string, Rate> {
  const results: Record<string, Rate> = {};
  results.rawUint32 = drawsPerSecond(() => rng.nextUint32());
  for (const scale of ['2', '20', '200']) {
    const sampler = makeDiscreteLaplaceSampler(parseRational(scale));
    results[`discreteLaplace_scale_${scale}`] = drawsPerSecond(() => sampler(rng));
  }
  for (const sigma2 of ['1', '100']) {
    const sampler = makeDiscreteGaussianSampler(parseRational(sigma2));
    results[`discreteGaussian_sigma2_${sigma2}`] = drawsPerSecond(() => sampler(rng));
  }
  return results;
}

function timeMultinomial(): { categories: number; draws: number; cpuSeconds: number; wallSeconds: number } {
  const categories = 20_000_000;
  const weights = new Float64Array(categories);
  for (let i = 0; i < categories; i++) weights[i] = 1 + (i % 10);
  const rng = new SeededRng('bench multinomial');
  const wallStart = performance.now();
  const cpuStart = cpuSeconds();
  sampleMultinomial(rng, 1_000_000, weights);
  return {
    categories,
    draws: 1_000_000,
    cpuSeconds: Number((cpuSeconds() - cpuStart).toFixed(3)),
    wallSeconds: Number(((performance.now() - wallStart) / 1000).toFixed(3)),
  };
}

const seeded = measureGenerator(new SeededRng('bench'));
const crypto = measureGenerator(new CryptoRng());
console.log(
  JSON.stringify({
    benchmark: 'samplers',
    unit: 'draws per second (CPU and wall)',
    node: process.version,
    seededRng: seeded,
    cryptoRng: crypto,
    targetDiscreteLaplaceScale2SeededPerSecond: 5_000_000,
    meetsTargetPerCpuSecond: seeded.discreteLaplace_scale_2.perCpuSecond > 5_000_000,
    loadAverage: os.loadavg()[0],
    multinomial: timeMultinomial(),
  }),
);
