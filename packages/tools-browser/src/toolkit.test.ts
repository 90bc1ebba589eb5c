/** @module The browser toolkit as data: its six tools, their governance, its configuration and what it serves. */
import { createToolkitHost } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { trafficCap } from "./browser-session.js";
import { chromiumArguments } from "./chromium-process.js";
import { createMemoryArtifacts } from "./fake/memory-artifacts.js";
import { browserToolkit } from "./toolkit.js";

const WRITES = ["browser_click", "browser_type", "browser_close"];

describe("the browser toolkit as data", () => {
  it("declares six tools in web, from its package", () => {
    const tools = browserToolkit.declarations();
    expect(tools.map((tool) => tool.name)).toEqual([
      "browser_navigate",
      "browser_read",
      "browser_screenshot",
      "browser_click",
      "browser_type",
      "browser_close",
    ]);
    for (const tool of tools) {
      expect(tool.category).toBe("web");
      expect(tool.provenance).toBe("package:@toolreg/tools-browser");
    }
  });

  it("gates every navigation for a person, with its reason; reads and interactions follow their effect", () => {
    for (const tool of browserToolkit.declarations()) {
      expect(tool.effect, tool.name).toBe(WRITES.includes(tool.name) ? "internal-write" : "read");
      expect(tool.approval, tool.name).toBe(tool.name === "browser_navigate" ? "always" : "never");
      expect(tool.idempotencyKey, tool.name).toBe(false);
    }
    const navigate = browserToolkit.declarations().find((tool) => tool.name === "browser_navigate");
    expect(navigate?.overrides).toEqual([
      { field: "approval", derived: "never", declared: "always", reason: expect.stringContaining("session") },
    ]);
    expect(browserToolkit.reviewedOverrides).toEqual([{ tool: "browser_navigate", field: "approval" }]);
  });

  it("sends a model to web_scrape first, and takes no credential and no coordinates anywhere", () => {
    const tools = browserToolkit.declarations();
    for (const name of ["browser_navigate", "browser_read"]) {
      expect(tools.find((tool) => tool.name === name)?.description).toContain("web_scrape");
    }
    for (const tool of tools) {
      const fields = Object.keys((tool.inputJsonSchema as { properties?: object }).properties ?? {});
      expect(fields.length, tool.name).toBeGreaterThan(0);
      for (const field of fields) {
        expect(field, tool.name).not.toMatch(
          /password|token|credential|cookie|secret|^x$|^y$|coordinate|selector/i,
        );
      }
    }
  });

  it("serves no screenshot tool where the host keeps no artifacts", async () => {
    const bare = createToolkitHost();
    const withArtifacts = createToolkitHost({ artifacts: createMemoryArtifacts() });
    try {
      const names = async (host: typeof bare) =>
        (await browserToolkit.build({}, host)).map((tool) => tool.name);
      expect(await names(bare)).not.toContain("browser_screenshot");
      expect(await names(withArtifacts)).toContain("browser_screenshot");
    } finally {
      await bare.close();
      await withArtifacts.close();
    }
  });
});

describe("the browser toolkit's configuration", () => {
  it("defaults to Debian's Chromium and ten-minute, fifty-page, 1 GiB sessions, four at once", () => {
    expect(browserToolkit.parseConfig({})).toEqual({
      executablePath: "/usr/bin/chromium",
      maxSessions: 4,
      lifetimeMs: 600_000,
      maxPages: 50,
      maxMemoryBytes: 1024 * 1024 * 1024,
      rendererHeapMiB: 512,
      navigationTimeoutMs: 15_000,
      maxDownloadBytes: 20 * 1024 * 1024,
      tunnelIdleMs: 120_000,
      maxTunnels: 64,
    });
    // Traffic is capped at ten downloads' worth unless configured, within 2 GiB.
    expect(trafficCap(browserToolkit.parseConfig({}))).toBe(200 * 1024 * 1024);
    expect(trafficCap(browserToolkit.parseConfig({ maxDownloadBytes: 100 * 1024 * 1024 }))).toBe(
      1000 * 1024 * 1024,
    );
    expect(() => browserToolkit.parseConfig({ maxTrafficBytes: 3 * 1024 * 1024 * 1024 })).toThrow(
      /maxTrafficBytes/,
    );
  });

  it("names each bad field and takes no field it does not know", () => {
    expect(() => browserToolkit.parseConfig({ executablePath: "chromium" })).toThrow(/executablePath/);
    expect(() => browserToolkit.parseConfig({ maxSessions: 0 })).toThrow(/maxSessions/);
    expect(() => browserToolkit.parseConfig({ ports: [0] })).toThrow(/ports/);
    expect(() => browserToolkit.parseConfig({ proxy: "http://elsewhere" })).toThrow(/proxy/);
  });
});

describe("Chromium's switches", () => {
  it("route everything through the session's proxy, loopback included, and turn off the paths around it", () => {
    const args = chromiumArguments({
      executablePath: "/usr/bin/chromium",
      proxyUrl: "http://127.0.0.1:4000",
      marker: "--toolreg-browser-session=bs_0",
      sandbox: true,
      heapMiB: 256,
      timeoutMs: 1_000,
    });
    expect(args).toEqual(
      expect.arrayContaining([
        "--proxy-server=http://127.0.0.1:4000",
        "--proxy-bypass-list=<-loopback>",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--disable-quic",
        "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
        "--js-flags=--max-old-space-size=256",
        "--toolreg-browser-session=bs_0",
      ]),
    );
  });
});
