import type { TestProject } from 'vitest/node';
import { startTwoShardCluster } from './cluster';

declare module 'vitest' {
  export interface ProvidedContext {
    clickhouseHttpPorts: number[];
  }
}

/** Starts the two-shard cluster before the ClickHouse tests and stops it after them, whatever happened. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cluster = await startTwoShardCluster();
  project.provide(
    'clickhouseHttpPorts',
    cluster.shards.map((shard) => shard.httpPort),
  );
  const stop = () => cluster.stop();
  process.once('SIGINT', () => void stop());
  return stop;
}
