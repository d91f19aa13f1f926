// Preloaded into a spawned CLI by the process tests: every write of a .csv file fails with a plain
// Error, as a full disk or a revoked permission would, so that the exit code of an internal error
// (1) can be observed from outside the process. Files are written whole (writeFileSync) or opened
// for writing and written in pieces (openSync with a write flag, then writeSync).
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const realWriteFileSync = fs.writeFileSync;
fs.writeFileSync = (path, ...rest) => {
  if (String(path).endsWith('.csv')) throw new Error(`simulated write failure: ${path}`);
  return realWriteFileSync(path, ...rest);
};
const realOpenSync = fs.openSync;
const realWriteSync = fs.writeSync;
const csvDescriptors = new Set();
fs.openSync = (path, flags, ...rest) => {
  const descriptor = realOpenSync(path, flags, ...rest);
  if (String(path).endsWith('.csv') && /[wa+]/.test(String(flags ?? 'r'))) csvDescriptors.add(descriptor);
  return descriptor;
};
fs.writeSync = (descriptor, ...rest) => {
  if (csvDescriptors.has(descriptor)) throw new Error('simulated write failure: a .csv file');
  return realWriteSync(descriptor, ...rest);
};
syncBuiltinESMExports();
