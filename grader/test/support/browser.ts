// A real headless browser for the HTML pages' tests: Debian's chromium-headless-shell (or a
// Chromium or Chrome found on the machine) driven by playwright-core, which downloads nothing.
// A page is opened from disk with every request, console error and dialog it made recorded.
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
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
