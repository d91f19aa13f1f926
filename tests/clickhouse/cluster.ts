import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Two ClickHouse server processes on loopback ports, forming a two-shard cluster `dpsynth_shards`
 * (each shard one replica), for the cluster tests and benches. Nothing listens beyond 127.0.0.1. The
 * configuration is the XML both 18.16 (Debian's package) and current releases read.
 */
export interface ShardServer {
  httpPort: number;
  tcpPort: number;
  folder: string;
  process: ChildProcess;
}

export interface TwoShardCluster {
  shards: ShardServer[];
  /** The HTTP address of shard i. */
  url(i: number): string;
  /** Runs one statement on shard i over HTTP; the answer's body. */
  query(i: number, sql: string, body?: string): Promise<string>;
  stop(): Promise<void>;
}

export const CLUSTER_NAME = 'dpsynth_shards';

/** A port nothing listens on now: the kernel's choice for a socket bound to port 0. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function configXml(folder: string, http: number, tcp: number, interserver: number, shards: number[]): string {
  const replicas = shards
    .map((port) => `<shard><replica><host>127.0.0.1</host><port>${port}</port></replica></shard>`)
    .join('');
  return `<?xml version="1.0"?>
<yandex>
  <logger><level>warning</level><log>${folder}/server.log</log><errorlog>${folder}/error.log</errorlog><console>0</console></logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${http}</http_port>
  <tcp_port>${tcp}</tcp_port>
  <interserver_http_port>${interserver}</interserver_http_port>
  <interserver_http_host>127.0.0.1</interserver_http_host>
  <path>${folder}/data/</path>
  <tmp_path>${folder}/tmp/</tmp_path>
  <user_files_path>${folder}/user_files/</user_files_path>
  <format_schema_path>${folder}/format_schemas/</format_schema_path>
  <users_config>${folder}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <mark_cache_size>67108864</mark_cache_size>
  <max_concurrent_queries>50</max_concurrent_queries>
  <remote_servers><${CLUSTER_NAME}>${replicas}</${CLUSTER_NAME}></remote_servers>
</yandex>
`;
}

const USERS_XML = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>2000000000</max_memory_usage><max_threads>2</max_threads></default></profiles>
  <users><default><password></password><networks><ip>127.0.0.1</ip><ip>::1</ip></networks><profile>default</profile><quota>default</quota></default></users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;

async function httpQuery(url: string, sql: string, body?: string): Promise<string> {
  const target = body === undefined ? `${url}/` : `${url}/?${new URLSearchParams({ query: sql })}`;
  const response = await fetch(target, { method: 'POST', body: body ?? sql });
  const text = await response.text();
  if (!response.ok) throw new Error(`ClickHouse ${url}: ${text.trim().slice(0, 1000)}`);
  return text;
}

async function waitUntilReady(
  url: string,
  server: ChildProcess,
  folder: string,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (server.exitCode !== null) {
      throw new Error(
        `clickhouse-server exited with code ${server.exitCode} before answering; see ${folder}/error.log.`,
      );
    }
    try {
      const response = await fetch(`${url}/ping`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(
        `clickhouse-server did not answer ${url}/ping within ${timeoutMs / 1000} s; see ${folder}/error.log.`,
      );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Starts the two shards, waits until both answer (timeout 60 s), and returns the cluster. */
export async function startTwoShardCluster(
  binary = process.env.CLICKHOUSE_SERVER ?? '/usr/sbin/clickhouse-server',
): Promise<TwoShardCluster> {
  const root = mkdtempSync(join(process.env.CLICKHOUSE_TEST_DIR ?? tmpdir(), 'dpsynth-clickhouse-'));
  const ports = await Promise.all(Array.from({ length: 6 }, () => freePort()));
  const tcpPorts = [ports[1]!, ports[4]!];
  const shards: ShardServer[] = [];
  const stop = async () => {
    await Promise.all(
      shards.map(
        (shard) =>
          new Promise<void>((resolve) => {
            if (shard.process.exitCode !== null || shard.process.signalCode !== null) return resolve();
            const timer = setTimeout(() => shard.process.kill('SIGKILL'), 10_000);
            shard.process.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
            shard.process.kill('SIGTERM');
          }),
      ),
    );
    rmSync(root, { recursive: true, force: true });
  };
  try {
    for (let i = 0; i < 2; i++) {
      const folder = join(root, `shard-${i + 1}`);
      for (const sub of ['data', 'tmp', 'user_files', 'format_schemas'])
        mkdirSync(join(folder, sub), { recursive: true });
      const [http, tcp, interserver] = ports.slice(3 * i, 3 * i + 3) as [number, number, number];
      writeFileSync(join(folder, 'config.xml'), configXml(folder, http, tcp, interserver, tcpPorts));
      writeFileSync(join(folder, 'users.xml'), USERS_XML);
      const server = spawn(binary, [`--config-file=${join(folder, 'config.xml')}`], {
        cwd: folder,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      server.stderr?.resume();
      shards.push({ httpPort: http, tcpPort: tcp, folder, process: server });
    }
    await Promise.all(
      shards.map((shard) =>
        waitUntilReady(`http://127.0.0.1:${shard.httpPort}`, shard.process, shard.folder, 60_000),
      ),
    );
  } catch (error) {
    await stop();
    throw error;
  }
  const url = (i: number) => `http://127.0.0.1:${shards[i]!.httpPort}`;
  return { shards, url, query: (i, sql, body) => httpQuery(url(i), sql, body), stop };
}
