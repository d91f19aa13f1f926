import { useAppShellStore, type InstallPromptEvent } from '../state/app-shell-store';

/**
 * Registers the studio's service worker (src/service-worker), which keeps this build for offline
 * use. Only in a built studio served over http(s): the dev server has no `sw.js`, and the one-file
 * build opened from disk cannot register one.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  if (location.protocol !== 'https:' && location.protocol !== 'http:') return;
  window.addEventListener('beforeinstallprompt', (event) => {
    // Keep the offer for the studio's own "Install as an app" button.
    event.preventDefault();
    useAppShellStore.setState({ installPrompt: event as InstallPromptEvent });
  });
  window.addEventListener('appinstalled', () => useAppShellStore.setState({ installPrompt: null }));
  void register().catch(() => {
    // Without a service worker the studio still works online; there is nothing the user must do.
  });
}

async function register(): Promise<void> {
  const container = navigator.serviceWorker;
  const registration = await container.register('./sw.js', { scope: './', updateViaCache: 'none' });
  const offerIfWaiting = () => {
    // With no controller this is the first install, which takes over by itself.
    if (registration.waiting && container.controller)
      useAppShellStore.setState({ waitingWorker: registration.waiting });
  };
  offerIfWaiting();
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing;
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed') offerIfWaiting();
    });
  });
  await container.ready;
  if (registration.active) useAppShellStore.setState({ offlineReady: true });
}

/** "Reload to update": the waiting build takes over, then the page reloads into it. */
export function applyUpdate(): void {
  const waiting = useAppShellStore.getState().waitingWorker;
  if (!waiting) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  waiting.postMessage({ type: 'skip-waiting' });
}

/** Shows the browser's install dialog; the offer can be used once. */
export async function installAsApp(): Promise<void> {
  const prompt = useAppShellStore.getState().installPrompt;
  if (!prompt) return;
  useAppShellStore.setState({ installPrompt: null });
  await prompt.prompt();
  await prompt.userChoice;
}
