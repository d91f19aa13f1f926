// Preloaded into a spawned CLI by the process tests: every write of a .csv file fails with a plain
// Error, as a full disk or a revoked permission would, so that the exit code of an internal error
// (1) can be observed from outside the process.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const realWriteFileSync = fs.writeFileSync;
fs.writeFileSync = (path, ...rest) => {
  if (String(path).endsWith('.csv')) throw new Error(`simulated write failure: ${path}`);
  return realWriteFileSync(path, ...rest);
};
syncBuiltinESMExports();
