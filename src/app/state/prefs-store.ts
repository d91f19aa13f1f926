import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';
import {
  DEFAULT_PREFERENCES,
  PREFERENCES_VERSION,
  migratePreferences,
  sanitizePreferences,
  type Preferences,
} from './prefs-migration';

export { DEFAULT_PREFERENCES, type Preferences } from './prefs-migration';

/**
 * Preferences: the only state the studio persists (localStorage, key "dpsynth-preferences").
 * Never data, schemas, results or seeds (DESIGN.md privacy rule 8): `partialize` below is the
 * whitelist, and `migrate` upgrades older stored shapes.
 */
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
