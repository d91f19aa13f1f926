// Runs every bench/*.bench.ts in its own Node process (so peak memory is per benchmark)
// and prints one JSON object per benchmark, one per line.
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

const only = process.argv.slice(2);
const files = readdirSync('bench')
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  const result = spawnSync('npx', ['tsx', `bench/${file}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
