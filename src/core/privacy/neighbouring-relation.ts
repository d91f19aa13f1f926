/**
 * Which datasets are neighbours (DESIGN.md §3 rule 1). `replace-one`: one row replaced, n public (the
 * default). `add-remove`: one row added or removed, n private.
 */
export type Neighbouring = 'replace-one' | 'add-remove';
