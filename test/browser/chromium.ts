/**
 * A real headless Chromium for the browser tests: Debian's `chromium` package, driven by
 * `playwright-core` (which downloads no browser). Nothing is skipped when it is missing:
 * launching fails, saying how to install it (`.ci/run` installs it as it does redis-server).
 */
import { existsSync } from 'node:fs';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Where Debian's `chromium` package puts the browser; `CHROMIUM_PATH` overrides it. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Launches headless Chromium.
 *
 * @throws Error saying how to install it when it is not at {@link CHROMIUM_PATH}.
 * @example
 * ```ts
 * const browser = await launchChromium();
 * try { … } finally { await browser.close(); }
 * ```
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: the browser tests need a real one. ` +
        'Install it with `apt-get update && apt-get install -y chromium`, or set CHROMIUM_PATH to a Chromium binary.',
    );
  }
  // --no-sandbox: CI containers run as root, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: ['--no-sandbox'] });
}

/** A page open at a URL, and how to close it (and its browser, when it launched one). */
export interface OpenPage {
  readonly page: Page;
  readonly browser: Browser;
  close(): Promise<void>;
}

/**
 * Opens `url` in a fresh context of `browser` (or of a Chromium launched for it, closed
 * with the page), once the page has loaded.
 *
 * @example
 * ```ts
 * const { page, close } = await openPage('http://127.0.0.1:8080/');
 * try {
 *   await page.click('#thumbs-up');
 * } finally {
 *   await close();
 * }
 * ```
 */
export async function openPage(url: string, browser?: Browser): Promise<OpenPage> {
  const owned = browser === undefined;
  const used = browser ?? (await launchChromium());
  try {
    const context = await used.newContext();
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    return {
      page,
      browser: used,
      close: async () => {
        await context.close();
        if (owned) await used.close();
      },
    };
  } catch (error) {
    if (owned) await used.close();
    throw error;
  }
}
