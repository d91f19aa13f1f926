import { defineConfig } from 'vitest/config';

// The ClickHouse tests (`npm run test:clickhouse`, part of `npm test`): two server processes on
// loopback ports as a two-shard cluster, started once for all files (tests/clickhouse/global-setup.ts)
// and always stopped. scripts/ensure-clickhouse.mjs installs Debian's clickhouse-server first.
export default defineConfig({
  test: {
    include: ['tests/clickhouse/**/*.clickhouse-test.ts'],
    environment: 'node',
    globalSetup: ['tests/clickhouse/global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 90_000,
  },
});
