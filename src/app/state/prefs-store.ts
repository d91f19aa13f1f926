import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * Preferences: the only state the studio persists (localStorage, key "dpsynth-preferences").
 * Never data, schemas, results or seeds (DESIGN.md privacy rule 8): `partialize` below is the
 * whitelist, and `migrate` upgrades older stored shapes.
 */
export interface Preferences {
  /** Number of ε values in the sweep grid and its range. */
  sweepPointCount: number;
  sweepMinEpsilon: number;
  sweepMaxEpsilon: number;
  sweepRepeats: number;
  /** Which TVD the sweep chart plots. */
  sweepMetric: 'one-way' | 'two-way';
  /** The mechanism picked last time, preselected next time. */
  lastMechanismId: string | null;
}

export const DEFAULT_PREFERENCES: Preferences = {
  sweepPointCount: 8,
  sweepMinEpsilon: 0.1,
  sweepMaxEpsilon: 10,
  sweepRepeats: 5,
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
    if (value !== undefined && typeMatches) clean[key] = value;
  }
  return clean as Partial<Preferences>;
}

/**
 * Version 0 stored the sweep metric as a number of ways (1 or 2); version 1 names it.
 * Anything else unknown is dropped by the whitelist.
 */
export function migratePreferences(stored: unknown, version: number): Preferences {
  const record =
    typeof stored === 'object' && stored !== null ? { ...(stored as Record<string, unknown>) } : {};
  if (version < 1 && typeof record.sweepWays === 'number') {
    record.sweepMetric = record.sweepWays === 1 ? 'one-way' : 'two-way';
  }
  return { ...DEFAULT_PREFERENCES, ...sanitizePreferences(record) };
}

export const usePrefsStore = create<Preferences>()(
  persist(() => DEFAULT_PREFERENCES, {
    name: 'dpsynth-preferences',
    version: PREFERENCES_VERSION,
    storage: createJSONStorage(() => localStorage),
    partialize: (state) => ({ ...DEFAULT_PREFERENCES, ...sanitizePreferences(state) }),
    migrate: migratePreferences,
    merge: (stored, current) => ({ ...current, ...sanitizePreferences(stored) }),
  }),
);

export function setPreference<K extends keyof Preferences>(key: K, value: Preferences[K]): void {
  usePrefsStore.setState({ [key]: value } as Pick<Preferences, K>);
}
