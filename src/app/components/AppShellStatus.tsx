import { applyUpdate, installAsApp } from '../services/service-worker';
import { useAppShellStore } from '../state/app-shell-store';

/** Offline readiness, the "Reload to update" offer and the install button, under the page title. */
export function AppShellStatus() {
  const offlineReady = useAppShellStore((state) => state.offlineReady);
  const updateReady = useAppShellStore((state) => state.waitingWorker !== null);
  const installable = useAppShellStore((state) => state.installPrompt !== null);
  if (!offlineReady && !updateReady && !installable) return null;
  return (
    <div className="app-shell-status">
      {offlineReady && (
        <p className="offline-note" data-testid="offline-ready">
          Kept for offline use: this studio now opens and runs with no network.
        </p>
      )}
      {installable && (
        <button type="button" onClick={() => void installAsApp()}>
          Install as an app
        </button>
      )}
      <div role="status" aria-live="polite" data-testid="update-offer">
        {updateReady && (
          <>
            A new version of the studio is ready.{' '}
            <button type="button" className="primary" onClick={applyUpdate}>
              Reload to update
            </button>
          </>
        )}
      </div>
    </div>
  );
}
