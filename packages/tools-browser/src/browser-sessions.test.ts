/**
 * @module Session caps against real Chromium: pages, lifetime, sessions at once and memory, and the whole
 * process group gone after every way a session ends (browser_close, a cap, the host closing).
 */

import { spawn } from "node:child_process";
import type { Envelope } from "toolreg";
import { createToolkitHost } from "toolreg/toolkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BrowserConfigSchema } from "./browser-config.js";
import { BrowserSessions } from "./browser-sessions.js";
import { findGroup, groupMembers, killGroup, killSessionGroup } from "./chromium-process.js";
import { failed, ok, SKIP, startBrowserHarness } from "./fake/browser-harness.js";
import { startTestSite, type TestSite } from "./fake/test-site.js";

const sessionOf = (envelope: Envelope) => (ok(envelope).data as { sessionId: string }).sessionId;
const groupOf = (sessionId: string) => findGroup(`--toolreg-browser-session=${sessionId}`);

describe.skipIf(SKIP)("browser session caps", () => {
  let site: TestSite;
  beforeAll(async () => {
    site = await startTestSite();
  });
  afterAll(async () => {
    await site?.close();
  });

  it("caps pages, sessions at once and lifetime, and leaves no Chromium process behind", async () => {
    const browser = await startBrowserHarness(site.port, { maxSessions: 1, maxPages: 2, lifetimeMs: 2_500 });
    try {
      const sessionId = sessionOf(await browser.call("browser_navigate", { url: `${site.origin}/form` }));
      const group = groupOf(sessionId) as number;
      expect(group).toBeGreaterThan(1);
      expect(groupMembers(group).length).toBeGreaterThan(1);
      ok(await browser.call("browser_navigate", { url: `${site.origin}/other`, sessionId }));
      const pages = failed(await browser.call("browser_navigate", { url: `${site.origin}/form`, sessionId }));
      expect(pages.code).toBe("precondition_failed");
      expect(pages.message).toMatch(/loaded its 2 pages/);

      // One session at once on this host: another run waits.
      const busy = failed(await browser.call("browser_navigate", { url: `${site.origin}/form` }, "r2"));
      expect(busy.code).toBe("rate_limited");
      expect(busy.retryable).toBe(true);

      // The lifetime ends the session by itself, and with it every process of its Chromium.
      await expect
        .poll(
          async () => {
            const read = await browser.call("browser_read", { sessionId });
            return read.ok ? "open" : read.error.message;
          },
          { timeout: 5_000, interval: 250 },
        )
        .toMatch(/is closed: its lifetime of 2500 ms ran out.*browser_navigate/);
      await expect.poll(() => groupMembers(group), { timeout: 3_000 }).toEqual([]);

      // browser_close ends a session at once.
      // Its room is given back once its teardown has finished.
      let second = "";
      await expect
        .poll(
          async () => {
            const started = await browser.call("browser_navigate", { url: `${site.origin}/form` }, "r2");
            if (started.ok) second = sessionOf(started);
            return started.ok ? "started" : started.error.code;
          },
          { timeout: 5_000, interval: 200 },
        )
        .toBe("started");
      const secondGroup = groupOf(second) as number;
      ok(await browser.call("browser_close", { sessionId: second }, "r2"));
      expect(groupMembers(secondGroup)).toEqual([]);
      expect(failed(await browser.call("browser_read", { sessionId: second }, "r2")).message).toMatch(
        /closed: browser_close closed it/,
      );

      // The host closing ends what is still open.
      const third = sessionOf(await browser.call("browser_navigate", { url: `${site.origin}/form` }, "r3"));
      const thirdGroup = groupOf(third) as number;
      expect(groupMembers(thirdGroup).length).toBeGreaterThan(0);
      await browser.close();
      expect(groupMembers(thirdGroup)).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 30_000);

  it("closes a session whose Chromium uses more memory than its cap", async () => {
    const browser = await startBrowserHarness(site.port, { maxMemoryBytes: 64 * 1024 * 1024 });
    try {
      const sessionId = sessionOf(await browser.call("browser_navigate", { url: `${site.origin}/form` }));
      const group = groupOf(sessionId) as number;
      await expect
        .poll(
          async () => {
            const read = await browser.call("browser_read", { sessionId });
            return read.ok ? "open" : read.error.message;
          },
          { timeout: 5_000, interval: 250 },
        )
        .toMatch(/its Chromium used \d+ bytes of memory, over the 67108864-byte cap/);
      await expect.poll(() => groupMembers(group), { timeout: 3_000 }).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 20_000);

  it("ends a session whose page stops answering, rather than waiting on it", async () => {
    const browser = await startBrowserHarness(site.port, { navigationTimeoutMs: 1_500 });
    try {
      const sessionId = sessionOf(await browser.call("browser_navigate", { url: `${site.origin}/stall` }));
      const group = groupOf(sessionId) as number;
      // The page's script stops yielding a second after it loaded.
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      const stalled = failed(await browser.call("browser_read", { sessionId }));
      expect(stalled.code).toBe("timeout");
      expect(stalled.message).toMatch(/did not answer within 3000 ms/);
      await expect.poll(() => groupMembers(group), { timeout: 3_000 }).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 20_000);

  it("closes a session still starting when the host closes, and leaves no Chromium behind", async () => {
    const host = createToolkitHost({ egressPolicy: { allowCidrs: ["127.0.0.1/32"] } });
    const sessions = new BrowserSessions(BrowserConfigSchema.parse({}), host.egress(), undefined);
    const context = { tenantId: "t", principalId: "p", runId: "r" } as never;
    const opening = sessions.openFor(context).then(
      () => undefined,
      (error: { code?: string; details?: { sessionId?: string } }) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    await sessions.closeAll();
    const refused = await opening;
    expect(refused?.code).toBe("precondition_failed");
    const sessionId = refused?.details?.sessionId as string;
    expect(sessionId).toMatch(/^bs_/);
    // closeAll waited for the start and its close: the group is gone as soon as it returns.
    expect(groupOf(sessionId)).toBeUndefined();
    expect(sessions.size).toBe(0);
  }, 20_000);

  it("closes a session whose traffic passes its cap (an endless body)", async () => {
    const browser = await startBrowserHarness(site.port, { maxTrafficBytes: 2 * 1024 * 1024 });
    try {
      const sessionId = sessionOf(
        await browser.call("browser_navigate", { url: `${site.origin}/endless-fetch` }),
      );
      const group = groupOf(sessionId) as number;
      const snapshot = ok(await browser.call("browser_read", { sessionId }));
      const button = snapshot.content.split("\n").find((line) => /^e\d+ .*button "Fetch"/.test(line));
      expect(button, snapshot.content).toBeDefined();
      // The click may answer before the cap closes the session, or as the session it closed: either is fine.
      await browser.call("browser_click", { sessionId, reference: button?.split(" ")[0] });
      await expect
        .poll(
          async () => {
            const read = await browser.call("browser_read", { sessionId });
            return read.ok ? "open" : read.error.message;
          },
          { timeout: 5_000, interval: 250 },
        )
        .toMatch(/its traffic passed 2097152 bytes/);
      await expect.poll(() => groupMembers(group), { timeout: 3_000 }).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 20_000);

  it("closes a session whose Chromium dies, and says so", async () => {
    const browser = await startBrowserHarness(site.port);
    try {
      const sessionId = sessionOf(await browser.call("browser_navigate", { url: `${site.origin}/form` }));
      killGroup(groupOf(sessionId) as number);
      await expect
        .poll(
          async () => {
            const read = await browser.call("browser_read", { sessionId });
            return read.ok ? "open" : `${read.error.code}: ${read.error.message}`;
          },
          { timeout: 5_000, interval: 100 },
        )
        .toMatch(/^precondition_failed: browser session \S+ is closed: Chromium exited/);
    } finally {
      await browser.close();
    }
  }, 20_000);

  it("kills a remembered group only while it still carries the session's marker", async () => {
    // A process group of another program, as a reused group number would be.
    const other = spawn("sleep", ["30"], { detached: true, stdio: "ignore" });
    try {
      const group = other.pid as number;
      expect(groupMembers(group)).toEqual([group]);
      expect(killSessionGroup(group, "--toolreg-browser-session=bs_0000000000000000")).toBe(false);
      expect(groupMembers(group)).toEqual([group]);
    } finally {
      other.kill("SIGKILL");
    }
  });
});
