/** What the ε sweep plots: mean TVD of 1- or 2-way marginals, or raw CART pMSE. */
export type SweepMetric = 'one-way' | 'two-way' | 'pmse';
export const SWEEP_METRICS: readonly SweepMetric[] = ['two-way', 'one-way', 'pmse'];

/**
 * The persisted preferences' shape, whitelist and migrations (pure, so they can be tested
 * without a browser). Only these keys are ever written to localStorage.
 */
export interface Preferences {
  /** Number of ε values in the sweep grid and its range. */
  sweepPointCount: number;
  sweepMinEpsilon: number;
  sweepMaxEpsilon: number;
  sweepRepeats: number;
  /** True: the sweep takes as many repeats as fit about a minute (sweep-cost.ts); false: sweepRepeats. */
  sweepRepeatsFitMinute: boolean;
  /** Which metric the sweep chart plots. */
  sweepMetric: SweepMetric;
  /** The mechanism picked last time, preselected next time. */
  lastMechanismId: string | null;
}

export const DEFAULT_PREFERENCES: Preferences = {
  sweepPointCount: 8,
  sweepMinEpsilon: 0.1,
  sweepMaxEpsilon: 10,
  sweepRepeats: 5,
  sweepRepeatsFitMinute: true,
  sweepMetric: 'two-way',
  lastMechanismId: null,
};

export const PREFERENCES_VERSION = 1;
const PERSISTED_KEYS = Object.keys(DEFAULT_PREFERENCES) as (keyof Preferences)[];

/** Keeps only whitelisted keys whose stored type matches the default's type. */
export function sanitizePreferences(stored: unknown): Partial<Preferences> {
  if (typeof stored !== 'object' || stored === null) return {};
  const clean: Record<string, unknown> = {};
  for (const key of PERSISTED_KEYS) {
    const value = (stored as Record<string, unknown>)[key];
    const expected = DEFAULT_PREFERENCES[key];
    const typeMatches =
      expected === null ? typeof value === 'string' || value === null : typeof value === typeof expected;
    const allowed = key !== 'sweepMetric' || (SWEEP_METRICS as readonly unknown[]).includes(value);
    if (value !== undefined && typeMatches && allowed) clean[key] = value;
  }
  return clean as Partial<Preferences>;
}

/**
 * Upgrades preferences stored by an older version (or by hand) to the current shape: known keys
 * of the right type are kept, everything else falls back to the defaults. Version 1 is the first
 * persisted shape; a later version adds its conversion here, keyed on `version`.
 */
export function migratePreferences(stored: unknown, version: number): Preferences {
  if (version > PREFERENCES_VERSION) return { ...DEFAULT_PREFERENCES };
  return { ...DEFAULT_PREFERENCES, ...sanitizePreferences(stored) };
}
