// Shared by the graphical-model benches: kernlab's `income` exported by Rscript at bench time, and
// the workload error of a synthetic table (all 3-way marginals, missing values as a level).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { columnsForCodings, levelsOfColumn } from '../src/core/mechanisms/common/coding/encode-rows';
import { countCells } from '../src/core/models/pgm/factor-index';
import { planPgmDomain } from '../src/core/mechanisms/common/graphical-models/pgm-domain';
import { combinations } from '../src/core/mechanisms/aim/workload';
import { buildTable, parseCsv, parseSchemaJson } from '../src/core/table';
import type { Schema, Table } from '../src/core/table/types';

/** income as a Table with its declared schema, or the reason it cannot be exported here. */
export function loadKernlabIncome(): { table: Table; schema: Schema } | { unavailable: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dpsynth-income-'));
  const csv = join(dir, 'income.csv');
  const schemaPath = join(dir, 'income.schema.json');
  const exported = spawnSync('Rscript', ['bench/export-kernlab-income.R', csv, schemaPath], {
    encoding: 'utf8',
  });
  if (exported.status !== 0) {
    return {
      unavailable: `Rscript could not export kernlab's income (install r-cran-kernlab): ${exported.stderr || exported.error}`,
    };
  }
  const schema = parseSchemaJson(readFileSync(schemaPath, 'utf8'), schemaPath);
  const table = buildTable(parseCsv(readFileSync(csv, 'utf8'), { fileName: csv }), schema).table;
  return { table, schema };
}

/** Levels per column (categories plus the missing level) under the schema's coding. */
export function encode(table: Table, schema: Schema): { levels: Uint32Array[]; sizes: number[] } {
  const domain = planPgmDomain(schema, { bins: 0, columnBins: '' }, table.nRows);
  const columns = columnsForCodings(table, domain.codings);
  return { levels: domain.codings.map((c, j) => levelsOfColumn(columns[j]!, c)), sizes: domain.sizes };
}

/**
 * The AIM paper's workload error: the mean over all k-way marginals r of ‖M_r(D) − M_r(D̂)‖₁ / n
 * (McKenna et al. 2022, §6.1), with the TVD (half of it) beside it.
 */
export function workloadError(
  real: Table,
  synthetic: Table,
  schema: Schema,
  k = 3,
): { error: number; tvd: number; marginals: number } {
  const a = encode(real, schema);
  const b = encode(synthetic, schema);
  const queries = combinations(a.sizes.length, k);
  let total = 0;
  for (const q of queries) {
    const x = countCells(a.levels, q, a.sizes);
    const y = countCells(b.levels, q, b.sizes);
    let l1 = 0;
    for (let c = 0; c < x.length; c++) l1 += Math.abs(x[c]! / real.nRows - y[c]! / synthetic.nRows);
    total += l1;
  }
  const error = total / queries.length;
  return { error, tvd: error / 2, marginals: queries.length };
}
