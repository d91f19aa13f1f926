import type { Locator, Page } from '@playwright/test';

/**
 * Presses Tab until `target` has the focus, proving it is reachable in the tab order (a `.focus()`
 * call would not). Fails after `limit` presses.
 */
export async function tabTo(page: Page, target: Locator, limit = 400): Promise<void> {
  for (let presses = 0; presses < limit; presses++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reached after ${limit} Tab presses: ${target.toString()}`);
}
