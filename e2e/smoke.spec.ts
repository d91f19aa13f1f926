import { test, expect } from '@playwright/test';
import { CONTENT_SECURITY_POLICY } from '../csp.config';

test('the production build loads, carries the CSP and requests nothing off its origin', async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL!).origin;
  const foreign: string[] = [];
  page.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
  });
  const response = await page.goto('/');
  expect(response?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
  const meta = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(meta).toBe(CONTENT_SECURITY_POLICY);
  await expect(page.getByRole('heading', { name: 'dpsynth', level: 1 })).toBeVisible();
  expect(foreign).toEqual([]);
});
