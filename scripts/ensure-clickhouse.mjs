// Makes sure a ClickHouse server binary for the cluster tests exists: CLICKHOUSE_SERVER, or Debian's
// /usr/sbin/clickhouse-server (package clickhouse-server, 18.16), installed with apt-get when missing
// and running as root. Waits up to 5 minutes for another apt-get to release its lock.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

const fromEnv = process.env.CLICKHOUSE_SERVER;
if (fromEnv) {
  if (!existsSync(fromEnv)) {
    console.error(`CLICKHOUSE_SERVER is set to ${fromEnv}, but no file is there.`);
    process.exit(2);
  }
  process.exit(0);
}
if (existsSync('/usr/sbin/clickhouse-server')) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
if (!isRoot) {
  console.error(
    "ClickHouse is missing for the cluster tests. Install Debian's package " +
      '(sudo apt-get install -y clickhouse-server) or set CLICKHOUSE_SERVER to a clickhouse-server binary, ' +
      'then run the tests again.',
  );
  process.exit(2);
}
console.log('Installing Debian clickhouse-server for the cluster tests (apt-get install clickhouse-server)…');
const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
try {
  execSync('apt-get -o DPkg::Lock::Timeout=300 update -qq', { stdio: 'inherit', env });
  execSync('apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends clickhouse-server', {
    stdio: 'inherit',
    env,
  });
} catch (error) {
  console.error(
    `apt-get could not install clickhouse-server (${error.message.split('\n')[0]}). Install it by hand ` +
      '(apt-get install clickhouse-server) or set CLICKHOUSE_SERVER, then run the tests again.',
  );
  process.exit(2);
}
if (!existsSync('/usr/sbin/clickhouse-server')) {
  console.error('apt-get finished but /usr/sbin/clickhouse-server is still missing.');
  process.exit(2);
}
