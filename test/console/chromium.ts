/**
 * @module Debian's Chromium for the console tests: headless, reaching no host but the test server's. A laptop
 * without it skips those tests; CI must run them, so there a missing browser fails them.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { expect } from "vitest";

export const CHROMIUM = "/usr/bin/chromium";
const MISSING = !existsSync(CHROMIUM);
export const SKIP = MISSING && process.env.CI !== "true";
if (SKIP) console.warn(`console tests skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

export function launchChromium(): Promise<Browser> {
  expect(MISSING, `${CHROMIUM} is missing: install the chromium package before the tests`).toBe(false);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 15_000,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // Any host but the test server fails to resolve: the page cannot reach the network.
      "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
    ],
  });
}
