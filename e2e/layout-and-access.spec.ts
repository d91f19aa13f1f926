import type { Page } from '@playwright/test';
import { StudioPage } from './pages/studio-page';
import { tabTo } from './support/keyboard';
import { expect, saveStepScreenshot, test } from './support/test';

/** Form controls and buttons without an accessible name, described for the failure message. */
async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const labelledByText = (element: HTMLElement) => {
      const ids = (element.getAttribute('aria-labelledby') ?? '').split(/\s+/).filter(Boolean);
      const texts = ids.map((id) => document.getElementById(id)?.textContent?.trim() ?? '');
      return texts.length > 0 && texts.every((text) => text !== '');
    };
    const problems: string[] = [];
    const controls = document.querySelectorAll<HTMLElement>(
      'input, select, textarea, button, [role="button"]',
    );
    for (const element of Array.from(controls)) {
      const named =
        (element as HTMLInputElement).labels?.length ||
        element.getAttribute('aria-label') ||
        // aria-labelledby counts only when every id it names exists and the label has text.
        labelledByText(element) ||
        (element.tagName === 'BUTTON' && element.textContent?.trim());
      if (!named) problems.push(element.outerHTML.slice(0, 120));
    }
    return problems;
  });
}

test('every control is labelled and the journey works from the keyboard', async ({ page }) => {
  const studio = new StudioPage(page);
  await studio.open();
  // The first Tab stops are the step links, then the file chooser of the drop zone.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('nav-step-data')).toBeFocused();

  await tabTo(page, studio.data.section.getByRole('button', { name: 'Load demo: Palmer penguins' }));
  await page.keyboard.press('Enter');
  await studio.data.expectLoaded('penguins.csv', 344);
  await tabTo(page, studio.data.section.getByTestId('row-preview'));
  await page.keyboard.press('PageDown');

  // Radio buttons form one tab stop; the arrow keys move within the group.
  // The catalogue's own radio group (the step has others: the goal question, the neighbouring relation).
  const catalogue = studio.mechanism.section.getByRole('group', { name: 'Mechanism', exact: true });
  const radio = catalogue.getByRole('radio', { name: /Laplace histogram/ });
  await tabTo(page, catalogue.getByRole('radio').first());
  // From the first radio, ArrowDown reaches every other one and wraps round: one press per mechanism.
  const mechanisms = await catalogue.getByRole('radio').count();
  for (let i = 0; i < mechanisms && !(await radio.isChecked()); i++) await page.keyboard.press('ArrowDown');
  await expect(radio).toBeChecked();
  const slider = studio.mechanism.section.getByRole('slider');
  await tabTo(page, slider);
  await page.keyboard.press('ArrowLeft');
  await expect(studio.mechanism.section.getByLabel('ε (epsilon)')).not.toHaveValue('1');
  await tabTo(page, studio.run.section.getByRole('button', { name: /^Run / }));
  await page.keyboard.press('Enter');
  await studio.run.expectFinished();
  await expect(page.getByTestId('marginal-chart').first()).toBeVisible();

  expect(await unlabelledControls(page)).toEqual([]);
});

test('the studio fits a 390 × 844 phone screen without sideways scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const studio = new StudioPage(page);
  await studio.open();
  await saveStepScreenshot(page, 'mobile-00-start');
  await studio.data.loadPenguins();
  await studio.mechanism.pick('laplace-histogram');
  await studio.run.start();
  await studio.run.expectFinished();
  await studio.results.expectChartsFor([
    'Species',
    'Island',
    'Beak Length (mm)',
    'Beak Depth (mm)',
    'Flipper Length (mm)',
    'Body Mass (g)',
    'Sex',
  ]);
  // Wide content is fine inside its own scrolling box (tables, heatmaps, the row preview).
  const overflowing = await page.evaluate(() => {
    const scrollsSideways = (element: Element) =>
      ['auto', 'scroll'].includes(getComputedStyle(element).overflowX);
    const insideScroller = (element: Element): boolean => {
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (scrollsSideways(parent)) return parent.getBoundingClientRect().right <= window.innerWidth + 0.5;
      }
      return false;
    };
    return Array.from(document.querySelectorAll('body *'))
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .filter((element) => !insideScroller(element))
      .map((element) => `${element.tagName}.${element.className} → ${element.getBoundingClientRect().right}`);
  });
  expect(overflowing, 'elements wider than the screen').toEqual([]);
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
  ).toBeLessThanOrEqual(0);
  await saveStepScreenshot(page, 'mobile-01-mechanism', 'step-mechanism');
  await saveStepScreenshot(page, 'mobile-02-results', 'step-results');
});
