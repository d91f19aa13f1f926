import { create } from 'zustand';

/** The browser's install offer (not yet in TypeScript's DOM types). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface AppShellState {
  /** A service worker holds this build: the studio opens without a network from now on. */
  offlineReady: boolean;
  /** A newer build is installed and waits for "Reload to update". */
  waitingWorker: ServiceWorker | null;
  /** The browser offers to install the studio as an app. */
  installPrompt: InstallPromptEvent | null;
}

/** How the studio is installed and kept (service worker, app install); holds no data. */
export const useAppShellStore = create<AppShellState>(() => ({
  offlineReady: false,
  waitingWorker: null,
  installPrompt: null,
}));
