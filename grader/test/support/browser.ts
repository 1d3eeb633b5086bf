// A real headless browser for the HTML pages' tests: Debian's chromium-headless-shell (or a
// Chromium or Chrome found on the machine) driven by playwright-core, which downloads nothing.
// A page is opened from disk with every request, console error and dialog it made recorded.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import { REPO_ROOT } from "../../paths.js";

/** Where a headless Chromium may be: $CHROMIUM_PATH, Debian's chromium-headless-shell, then a full Chromium or Chrome (GitHub's Ubuntu runners have Chrome). */
const BROWSERS = [process.env.CHROMIUM_PATH, "/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell", "/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/google-chrome"];
/** Where the tests keep their screenshots, for a person to look at. */
export const SCREENSHOTS = path.join(REPO_ROOT, ".grade", "screenshots");

/** The first headless Chromium found; throws one line saying how to install one (CI's .ci/run does). */
export function browserPath(): string {
  const found = BROWSERS.find((p): p is string => !!p && fs.existsSync(p));
  if (!found) throw new Error("No headless Chromium for the HTML report's tests: install it with `apt-get install -y chromium-headless-shell` (Debian; .ci/run does), or set CHROMIUM_PATH");
  return found;
}

/** Starts the headless browser. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: browserPath() });
}

/** A page of `html` opened from disk, with every request, console error and uncaught error it made. */
export interface Opened {
  page: Page;
  context: BrowserContext;
  url: string;
  requests: string[];
  errors: string[];
  dialogs: string[];
}

/** Opens `file` in a new context of `browser` (1280 px wide and light unless told). */
export async function openPage(browser: Browser, file: string, opts: { width?: number; dark?: boolean; noClipboard?: boolean } = {}): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: opts.width ?? 1280, height: 900 }, colorScheme: opts.dark ? "dark" : "light" });
  const page = await context.newPage();
  const url = pathToFileURL(file).href;
  const opened: Opened = { page, context, url, requests: [], errors: [], dialogs: [] };
  page.on("request", (r) => opened.requests.push(r.url()));
  page.on("console", (m) => void (m.type() === "error" && opened.errors.push(m.text())));
  page.on("pageerror", (e) => opened.errors.push(String(e)));
  page.on("dialog", (d) => void (opened.dialogs.push(d.message()), d.dismiss()));
  if (opts.noClipboard) await page.addInitScript("Object.defineProperty(Navigator.prototype, 'clipboard', { get: () => undefined });");
  await page.goto(url, { waitUntil: "load" });
  return opened;
}

/** Saves a full-page screenshot of `file` as `name-<scheme>-<width>.png` in SCREENSHOTS, in each colour scheme, on a desktop and at 360 px; returns each page wider than its viewport. */
export async function screenshots(browser: Browser, name: string, file: string): Promise<string[]> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  const overflowing: string[] = [];
  for (const dark of [false, true])
    for (const width of [1280, 360]) {
      const { page, context } = await openPage(browser, file, { width, dark });
      await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${dark ? "dark" : "light"}-${width}.png`), fullPage: true });
      const scrollWidth = (await page.evaluate("document.documentElement.scrollWidth")) as number;
      if (scrollWidth > width) overflowing.push(`${name} ${dark ? "dark" : "light"} at ${width}px: ${scrollWidth}px wide`);
      await context.close();
    }
  return overflowing;
}

/** The checks pressing Tab from the top of the open page reaches (their <summary>), each with a solid focus ring; throws on one without. */
export async function checksReachedByTab(page: Page, ids: string[]): Promise<string[]> {
  const reached = new Set<string>();
  const focusables = (await page.evaluate("document.querySelectorAll('a[href], button, summary').length")) as number;
  for (let i = 0; i < focusables + 2 && reached.size < ids.length; i++) {
    await page.keyboard.press("Tab");
    const focused = (await page.evaluate(
      "(() => { const e = document.activeElement; const c = e && e.closest('[data-check]'); return c && e.tagName === 'SUMMARY' ? { id: c.getAttribute('data-check'), outline: getComputedStyle(e).outlineStyle } : null; })()",
    )) as { id: string; outline: string } | null;
    if (focused) {
      if (focused.outline !== "solid") throw new Error(`${focused.id} has focus with no visible ring (outline ${focused.outline})`);
      reached.add(focused.id);
    }
  }
  return [...reached].sort();
}

/** Clicks the Copy button of check `id` with clipboard access granted, and returns what the clipboard then holds. */
export async function copiedReplay(browser: Browser, file: string, id: string): Promise<string> {
  const opened = await openPage(browser, file);
  await opened.context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const button = opened.page.locator(`details[data-check="${id}"] button.copy`);
  await button.click();
  for (let i = 0; i < 50 && (await button.getAttribute("data-copied")) !== "clipboard"; i++) await opened.page.waitForTimeout(20);
  const text = (await opened.page.evaluate("navigator.clipboard.readText()")) as string;
  await opened.context.close();
  return text;
}

/**
 * One headless browser for a test file: launched before its tests and closed after them, when the
 * targets its tests composed (`keep`) are cleaned up too.
 */
export function browserPerFile(): { browser(): Browser; keep(target: { cleanup: () => Promise<void> }): void } {
  let browser: Browser | undefined;
  const targets: { cleanup: () => Promise<void> }[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await Promise.all(targets.map((t) => t.cleanup()));
  });
  return {
    browser: () => {
      if (!browser) throw new Error("the browser is launched before the file's tests, in beforeAll");
      return browser;
    },
    keep: (target) => void targets.push(target),
  };
}
