import type { Page } from 'playwright-core';

/** The page's uncaught exceptions and console errors, as they come (the benchmarks in Chromium). */
export function pageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}
