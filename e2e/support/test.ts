import { test as base, expect, type Page } from '@playwright/test';

export interface CspViolation {
  directive: string;
  blockedURI: string;
  source: 'document' | 'console';
}

interface LocalOnlyGuard {
  /** Requests that left the test server's origin. */
  foreignRequests: string[];
  /** Content-Security-Policy violations seen in the page or reported on the console (workers). */
  cspViolations: CspViolation[];
  /** Uncaught errors in the page. */
  pageErrors: string[];
}

interface Options {
  /** Set with test.use() by the one test that provokes CSP violations on purpose. */
  expectCspViolations: boolean;
}

/**
 * The studio's browser tests run with a guard (DESIGN.md privacy rule 8): any request to a
 * non-local origin, any Content-Security-Policy violation and any uncaught page error fails
 * the test that caused it.
 */
export const test = base.extend<Options & { guard: LocalOnlyGuard }>({
  expectCspViolations: [false, { option: true }],
  guard: [
    async ({ page, baseURL, expectCspViolations }, use) => {
      const origin = new URL(baseURL!).origin;
      const guard: LocalOnlyGuard = { foreignRequests: [], cspViolations: [], pageErrors: [] };
      // file: is the one-file build opened from disk (no network is involved).
      const isLocal = (url: string) =>
        url.startsWith(origin) ||
        url.startsWith('data:') ||
        url.startsWith('blob:') ||
        url.startsWith('file:') ||
        url === 'about:blank';
      page.context().on('request', (request) => {
        if (!isLocal(request.url())) guard.foreignRequests.push(request.url());
      });
      page.on('console', (message) => {
        const text = message.text();
        if (/Content Security Policy/i.test(text) && /Refused|violat/i.test(text)) {
          guard.cspViolations.push({ directive: text, blockedURI: '', source: 'console' });
        }
      });
      page.on('pageerror', (error) => guard.pageErrors.push(error.message));
      await page.exposeFunction('__reportCspViolation', (directive: string, blockedURI: string) => {
        guard.cspViolations.push({ directive, blockedURI, source: 'document' });
      });
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          (window as unknown as { __reportCspViolation(d: string, u: string): void }).__reportCspViolation(
            event.violatedDirective,
            event.blockedURI,
          );
        });
      });
      await use(guard);
      expect(guard.foreignRequests, 'requests to non-local origins').toEqual([]);
      expect(guard.pageErrors, 'uncaught errors in the page').toEqual([]);
      if (!expectCspViolations) expect(guard.cspViolations, 'Content-Security-Policy violations').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Saves a screenshot of one part of the page as a test artifact under test-results/. */
export async function saveStepScreenshot(page: Page, name: string, testId?: string): Promise<string> {
  const path = test.info().outputPath(`${name}.png`);
  if (testId === undefined) await page.screenshot({ path, fullPage: true });
  else await page.getByTestId(testId).screenshot({ path, style: '.step-nav { visibility: hidden; }' });
  await test.info().attach(name, { path, contentType: 'image/png' });
  return path;
}
