import type { FileChooser, Page } from '@playwright/test';

/**
 * The file chooser that `act` opens. Right after a page loads, Chromium sometimes opens no chooser
 * for a trusted key press or click (its DevTools protocol reports none), so `act` is repeated while
 * none has appeared, up to `attempts` times, `wait` ms each. The test still fails when the action
 * never opens a chooser.
 */
export async function openFileChooser(
  page: Page,
  act: () => Promise<void>,
  attempts = 3,
  wait = 5_000,
): Promise<FileChooser> {
  for (let attempt = 1; ; attempt++) {
    const chooser = page.waitForEvent('filechooser', { timeout: wait });
    await act();
    try {
      return await chooser;
    } catch (error) {
      if (attempt >= attempts) throw error;
    }
  }
}
