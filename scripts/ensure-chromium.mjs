// Makes sure a Chromium for the browser tests exists: CHROMIUM_PATH, or Debian's
// /usr/bin/chromium, installed with apt-get when missing and running as root.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const fromEnv = process.env.CHROMIUM_PATH;
if (fromEnv) {
  if (!existsSync(fromEnv)) {
    console.error(`CHROMIUM_PATH is set to ${fromEnv}, but no file is there.`);
    process.exit(2);
  }
  process.exit(0);
}
if (existsSync('/usr/bin/chromium')) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    "Chromium is missing. Install Debian's package (sudo apt-get install -y chromium) " +
      'or set CHROMIUM_PATH to a Chromium or Chrome binary, then run the tests again.',
  );
  process.exit(2);
}
console.log('Installing Debian chromium for the browser tests (apt-get install chromium)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
execSync('apt-get update -qq', { stdio: 'inherit', env });
execSync('apt-get install -y -qq chromium', { stdio: 'inherit', env });
if (!existsSync('/usr/bin/chromium')) {
  console.error('apt-get finished but /usr/bin/chromium is still missing.');
  process.exit(2);
}
