import type { CountQuery, SqlRelation } from '../../core/counts/count-queries';
import type { CountSource } from '../../core/counts/count-source';
import { sqlIdentifier, type ColumnStorage } from '../../core/counts/sql-coding';
import { sqlCountSource, type CountQueryRunner } from '../../core/counts/sql-count-source';
import { InputError } from '../../core/table/errors';
import type { Schema } from '../../core/table/types';

/**
 * ClickHouse through its HTTP interface (plain SQL in a POST, TabSeparated results), with Node's
 * fetch. The interface has kept this form from 18.16 (Debian's package) to current releases; the
 * official client targets current servers and adds nothing a handful of GROUP BY queries need, so no
 * client package is used. Only the steward's own server is contacted, at the address they give.
 */
export interface ClickHouseAddress {
  /** http://host:port of the HTTP interface. */
  url: string;
  database: string;
  table: string;
  user?: string;
  password?: string;
}

/** Reads clickhouse://[user[:password]@]host[:port]/db.table (port: the HTTP port, 8123 by default). */
export function parseClickHouseAddress(text: string): ClickHouseAddress {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw new InputError(`${text} is not a ClickHouse address: write clickhouse://host:port/database.table.`);
  }
  const path = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  const dot = path.indexOf('.');
  if (parsed.protocol !== 'clickhouse:' || dot <= 0 || dot === path.length - 1 || parsed.hostname === '') {
    throw new InputError(`${text} is not a ClickHouse address: write clickhouse://host:port/database.table.`);
  }
  return {
    url: `http://${parsed.hostname.includes(':') ? `[${parsed.hostname}]` : parsed.hostname}:${parsed.port || '8123'}`,
    database: path.slice(0, dot),
    table: path.slice(dot + 1),
    ...(parsed.username ? { user: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
  };
}

/** The address without its password, for messages and the report. */
export function describeClickHouse(address: ClickHouseAddress): string {
  return `ClickHouse at ${address.url.replace(/^http/, 'clickhouse')}/${address.database}.${address.table}`;
}

/** Sends one statement; the body of the answer, or an Error with the server's message. */
export async function clickHouseQuery(
  address: ClickHouseAddress,
  sql: string,
  body?: BodyInit,
): Promise<string> {
  const params = new URLSearchParams({ database: address.database });
  if (address.user !== undefined) params.set('user', address.user);
  if (address.password !== undefined) params.set('password', address.password);
  if (body !== undefined) params.set('query', sql);
  let response: Response;
  try {
    response = await fetch(`${address.url}/?${params}`, {
      method: 'POST',
      body: body ?? sql,
      ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
    } as RequestInit);
  } catch (error) {
    throw new InputError(`cannot reach ClickHouse at ${address.url}: ${(error as Error).message}.`);
  }
  const text = await response.text();
  if (!response.ok)
    throw new Error(`ClickHouse at ${address.url} refused a query: ${text.trim().slice(0, 2000)}`);
  return text;
}

/** TabSeparated rows as arrays of fields (counts are plain digits, no escapes). */
function tabSeparatedRows(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));
}

const NUMBER_TYPE = /^(Nullable\()?(U?Int(8|16|32|64|128|256)|Float(32|64)|Decimal.*)\)?$/;

/** The table's columns and how each is stored, from DESCRIBE TABLE. */
export async function clickHouseRelation(address: ClickHouseAddress, schema: Schema): Promise<SqlRelation> {
  const from = `${sqlIdentifier('clickhouse', address.database)}.${sqlIdentifier('clickhouse', address.table)}`;
  const described = tabSeparatedRows(
    await clickHouseQuery(address, `DESCRIBE TABLE ${from} FORMAT TabSeparated`),
  );
  const types = new Map(described.map((row) => [row[0]!, row[1]!]));
  for (const column of schema.columns) {
    if (!types.has(column.name)) {
      throw new InputError(
        `${describeClickHouse(address)} has no column \`${column.name}\` named in the schema.`,
      );
    }
  }
  return {
    dialect: 'clickhouse',
    from,
    storage: (name): ColumnStorage => (NUMBER_TYPE.test(types.get(name) ?? '') ? 'number' : 'text'),
  };
}

/** Runs count queries over HTTP. */
export function clickHouseRunner(address: ClickHouseAddress): CountQueryRunner {
  return {
    run: async (query: CountQuery) =>
      tabSeparatedRows(await clickHouseQuery(address, `${query.sql} FORMAT TabSeparated`)),
    close: () => Promise.resolve(),
  };
}

/** `synth --source clickhouse://host:port/db.table`: counts computed on the server (or cluster). */
export async function clickHouseCountSource(text: string, schema: Schema): Promise<CountSource> {
  const address = parseClickHouseAddress(text);
  const relation = await clickHouseRelation(address, schema);
  return sqlCountSource(describeClickHouse(address), schema, relation, clickHouseRunner(address));
}
