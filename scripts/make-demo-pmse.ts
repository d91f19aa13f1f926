// Writes public/demo/pmse-simulation.csv and its declared schema: the simulated data of
// Snoke & Slavković (2018), "pMSE Mechanism: Differentially Private Synthetic Data with Maximal
// Distributional Similarity", §5 (also used in §6–7): n = 5,000,
//   X1 ~ N(2, 10),   X2 | X1 ~ N(−2.5 + 0.5·X1, 3).
// The paper writes N(·, ·) without naming the second argument; its §5 synthesis model
// "Xs1 ~ N(θ1, θ2)" and its flat prior "N(0, 100,000)" follow the statistical convention
// N(mean, variance), so 10 and 3 are read as VARIANCES: sd(X1) = √10 ≈ 3.162, sd(X2 | X1) = √3 ≈ 1.732.
// (The pMSE mechanism in src/core/mechanisms/pmse-mechanism reads them the same way.)
// Fixed seed: the file is reproducible. Run: npx tsx scripts/make-demo-pmse.ts
import { writeFileSync } from 'node:fs';
import { SeededRng, sampleNormal } from '../src/core/rng';

const SEED = 'dpsynth-demo-pmse-2018';
const N = 5000;
const X1_MEAN = 2;
const X1_VARIANCE = 10;
const X2_INTERCEPT = -2.5;
const X2_SLOPE = 0.5;
const X2_RESIDUAL_VARIANCE = 3;

const rng = new SeededRng(SEED);
const lines = ['X1,X2'];
for (let i = 0; i < N; i++) {
  const x1 = sampleNormal(rng, X1_MEAN, Math.sqrt(X1_VARIANCE));
  const x2 = sampleNormal(rng, X2_INTERCEPT + X2_SLOPE * x1, Math.sqrt(X2_RESIDUAL_VARIANCE));
  // Six decimals keep the file small; the rounding (≤ 5e-7) is far below the model's spread.
  lines.push(`${x1.toFixed(6)},${x2.toFixed(6)}`);
}
writeFileSync('public/demo/pmse-simulation.csv', `${lines.join('\n')}\n`);

// Declared bounds: mean ± 4 standard deviations of each marginal under the (public) generating
// model, widened to whole numbers. X1: 2 ± 4·√10 = [−10.65, 14.65] → [−11, 15].
// X2: mean −2.5 + 0.5·2 = −1.5, variance 0.5²·10 + 3 = 5.5, so −1.5 ± 4·√5.5 = [−10.88, 7.88] → [−11, 8].
const schema = {
  version: 1,
  columns: [
    { name: 'X1', type: 'numeric', bounds: [-11, 15], source: 'declared' },
    { name: 'X2', type: 'numeric', bounds: [-11, 8], source: 'declared' },
  ],
  missing: ['', 'NA', 'NaN', 'null'],
};
writeFileSync('public/demo/pmse-simulation.schema.json', `${JSON.stringify(schema, null, 2)}\n`);
console.log(`pmse-simulation.csv: ${N} rows, seed "${SEED}"`);
