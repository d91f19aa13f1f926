import { describe, expect, it } from 'vitest';
import { mixedTable, runContext } from './common/testing/fixtures';
import { resolveParams } from './params';
import { getMechanismMeta, MECHANISM_CATALOGUE } from './catalogue';
import { isMechanismId, MECHANISM_IDS, parseMechanismId } from './mechanism-id';
import { getMechanism, mechanismIds, MECHANISMS } from './registry';

describe('registry', () => {
  it('lists each mechanism once, under a kebab-case id', () => {
    const ids = mechanismIds();
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(ids).toEqual(expect.arrayContaining(['laplace-histogram', 'smoothed-histogram', 'dp-marginals']));
  });

  it("lists in the page's catalogue exactly the registered mechanisms, in the same order, each with its meta", () => {
    expect(MECHANISM_CATALOGUE.map((meta) => meta.id)).toEqual(MECHANISMS.map((mechanism) => mechanism.id));
    MECHANISMS.forEach((mechanism, i) => {
      const meta = MECHANISM_CATALOGUE[i]!;
      for (const key of Object.keys(meta) as (keyof typeof meta)[]) {
        expect(mechanism[key], `${mechanism.id}.${key}`).toBe(meta[key]);
      }
      expect(getMechanismMeta(mechanism.id)).toBe(meta);
    });
    expect(getMechanismMeta('no-such-mechanism')).toBeUndefined();
  });

  it('registers exactly the ids of the MechanismId type, in its order', () => {
    expect(MECHANISMS.map((mechanism) => mechanism.id)).toEqual([...MECHANISM_IDS]);
    expect(mechanismIds()).toEqual([...MECHANISM_IDS]);
  });

  it('parses a mechanism id from text, refusing unknown text with the known ids', () => {
    expect(parseMechanismId('mst')).toBe('mst');
    expect(isMechanismId('MST')).toBe(false);
    expect(() => parseMechanismId('laplace')).toThrow(
      expect.objectContaining({
        name: 'InputError',
        message: `unknown mechanism 'laplace'. Known: ${MECHANISM_IDS.join(', ')}.`,
      }),
    );
  });

  it('finds mechanisms by id and nothing under an unknown id', () => {
    for (const mechanism of MECHANISMS) expect(getMechanism(mechanism.id)).toBe(mechanism);
    expect(getMechanism('no-such-mechanism')).toBeUndefined();
  });

  it('gives every mechanism the catalogue texts and parameter defaults that pass their own checks', () => {
    for (const mechanism of MECHANISMS) {
      expect(mechanism.label.length, mechanism.id).toBeGreaterThan(0);
      expect(mechanism.summary, mechanism.id).not.toMatch(/\n/);
      expect(mechanism.reference.length, mechanism.id).toBeGreaterThan(0);
      expect(mechanism.supports.numeric || mechanism.supports.categorical, mechanism.id).toBe(true);
      const names = mechanism.params.map((spec) => spec.name);
      expect(new Set(names).size, mechanism.id).toBe(names.length);
      const defaults = Object.fromEntries(mechanism.params.map((spec) => [spec.name, spec.default]));
      expect(resolveParams(mechanism, defaults), mechanism.id).toEqual(defaults);
    }
  });

  it.each(['laplace-histogram', 'smoothed-histogram', 'dp-marginals'])(
    '%s runs on a declared mixed schema and claims exactly the ε given',
    async (id) => {
      const mechanism = getMechanism(id)!;
      const { table, schema } = mixedTable(300);
      const params = resolveParams(mechanism, {});
      const ctx = runContext(schema, 300, { epsilon: '0.7', releases: 2, seeded: false });
      expect(mechanism.check(schema, params, ctx)).toEqual([]);
      const claim = mechanism.claim(params, ctx);
      expect(claim).toMatchObject({ notion: 'pure-dp', epsilon: 0.7, delta: 0 });
      const release = await mechanism.run(table, schema, params, ctx);
      expect(release.claim).toEqual(claim);
      expect(release.datasets.map((dataset) => dataset.nRows)).toEqual([300, 300]);
      for (const dataset of release.datasets) {
        expect(dataset.columns.map((column) => column.name)).toEqual(['age', 'income', 'sex']);
      }
    },
  );

  it.each(['laplace-histogram', 'smoothed-histogram', 'dp-marginals'])(
    '%s returns its diagnostics in two parts, the public one JSON-safe',
    async (id) => {
      const mechanism = getMechanism(id)!;
      const { table, schema } = mixedTable(200);
      const release = await mechanism.run(
        table,
        schema,
        resolveParams(mechanism, {}),
        runContext(schema, 200),
      );
      expect(JSON.parse(JSON.stringify(release.diagnostics))).toEqual(release.diagnostics);
      // These mechanisms compute nothing from the real data beyond the DP counts.
      expect(release.dataHolderDiagnostics).toEqual({});
    },
  );
});
