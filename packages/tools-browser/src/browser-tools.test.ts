/**
 * @module The browser tools against real Chromium and local pages, behind a real seam: what a page may load,
 * what it may not, reading, clicking and typing by reference, downloads as artifacts. One Chromium for the
 * whole file (one run, one session); the caps have their own file.
 */
import type { OkEnvelope } from "toolreg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BrowserHarness, failed, ok, SKIP, startBrowserHarness } from "./fake/browser-harness.js";
import { startTestSite, type TestSite } from "./fake/test-site.js";

describe.skipIf(SKIP)("the governed browser", () => {
  let site: TestSite;
  let browser: BrowserHarness;
  let sessionId: string;

  const navigate = async (path: string) => {
    const loaded = ok(await browser.call("browser_navigate", { url: `${site.origin}${path}`, sessionId }));
    return loaded;
  };
  const read = async () => ok(await browser.call("browser_read", { sessionId }));
  const reference = (snapshot: OkEnvelope, pattern: RegExp) => {
    const line = snapshot.content
      .split("\n")
      .find((candidate) => /^e\d+ /.test(candidate) && pattern.test(candidate));
    if (!line) throw new Error(`no element matches ${pattern} in:\n${snapshot.content}`);
    return line.split(" ")[0] as string;
  };

  beforeAll(async () => {
    site = await startTestSite();
    browser = await startBrowserHarness(site.port);
    const first = ok(await browser.call("browser_navigate", { url: `${site.origin}/form` }));
    sessionId = (first.data as { sessionId: string }).sessionId;
  }, 30_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it("reads a page as text with references, fenced as untrusted", async () => {
    const snapshot = await read();
    expect(snapshot.content).toContain("\\# Search form");
    expect(snapshot.content).toContain("\\# Find a widget");
    expect(snapshot.content).toMatch(/e\d+ input\[text\] "Widget name" name="q"/);
    expect(snapshot.content).toMatch(/e\d+ button "Search"/);
    expect(snapshot.provenance).toEqual({ source: `${site.origin}/form`, trusted: false });
  });

  it("fills a form by reference and submits it, and the result reads back", async () => {
    const snapshot = await read();
    const typed = ok(
      await browser.call("browser_type", {
        sessionId,
        reference: reference(snapshot, /Widget name/),
        text: "sprocket",
      }),
    );
    expect(typed.content).toContain("Typed into");
    // Typing ended that snapshot: read again for the button.
    const again = await read();
    expect(again.content).toContain('value="sprocket"');
    ok(await browser.call("browser_click", { sessionId, reference: reference(again, /button "Search"/) }));
    const result = await read();
    expect(result.content).toContain("You searched for sprocket.");
    expect((result.data as { url: string }).url).toBe(`${site.origin}/result?q=sprocket`);
  });

  it("refuses a stale reference, from an earlier read or after the page moved on", async () => {
    await navigate("/form");
    const first = await read();
    const oldLink = reference(first, /Another page/);
    const second = await read();
    const stale = failed(await browser.call("browser_click", { sessionId, reference: oldLink }));
    expect(stale.code).toBe("precondition_failed");
    expect(stale.message).toMatch(/not a reference of the current snapshot.*browser_read/);
    // A reference of the current read works once, and the click ends that snapshot.
    const link = reference(second, /Another page/);
    ok(await browser.call("browser_click", { sessionId, reference: link }));
    expect(failed(await browser.call("browser_click", { sessionId, reference: link })).code).toBe(
      "precondition_failed",
    );
    // A reference never handed out is refused the same way; a malformed one never reaches the session.
    expect(failed(await browser.call("browser_click", { sessionId, reference: "e999999" })).code).toBe(
      "precondition_failed",
    );
    expect(failed(await browser.call("browser_click", { sessionId, reference: "#submit" })).code).toBe(
      "invalid_input",
    );
  });

  it("refuses to type into a password field, a current-password field, a sign-in form or a file input", async () => {
    await navigate("/login");
    const snapshot = await read();
    expect(snapshot.content).not.toContain("value=");
    const cases: [RegExp, RegExp][] = [
      [/"Password"/, /password field/],
      [/"Secret"/, /password field/],
      [/"User"/, /form with a password field/],
      [/"Upload"/, /file input/],
      // In no form, on a page with a password field (here "Secret"): refused too.
      [/"Plain"/, /outside any form on a page with a password field/],
    ];
    for (const [label, why] of cases) {
      const current = await read();
      const refused = failed(
        await browser.call("browser_type", {
          sessionId,
          reference: reference(current, label),
          text: "hunter2",
        }),
      );
      expect(refused.code, String(label)).toBe("invalid_input");
      expect(refused.message).toMatch(why);
    }
  });

  it("refuses a password field a page disguises to its own scripts, and sign-in fields outside any form", async () => {
    const cases: [string, RegExp, RegExp][] = [
      // The page redefines the type getter and getAttribute: in its own world the field reads as text.
      ["/spoofed-password", /^e\d+ input/, /password field/],
      ["/formless-login", /"User"/, /outside any form on a page with a password field/],
      ["/shadow-login", /"User"/, /outside any form on a page with a password field/],
    ];
    for (const [path, label, why] of cases) {
      await navigate(path);
      const refused = failed(
        await browser.call("browser_type", {
          sessionId,
          reference: reference(await read(), label),
          text: "hunter2",
        }),
      );
      expect(refused.code, path).toBe("invalid_input");
      expect(refused.message, path).toMatch(why);
    }
  });

  it("keeps a snapshot within its limits when the page replaces the built-ins its script uses", async () => {
    await navigate("/overridden");
    const snapshot = await read();
    expect(snapshot.content.split("\n").filter((line) => /^e\d+ button/.test(line))).toHaveLength(200);
    expect(snapshot.content).toContain("(more elements were left out)");
    expect(snapshot.content).toContain("(the text was cut here)");
    expect((snapshot.data as { references: number }).references).toBe(200);
    expect(snapshot.content.length).toBeLessThan(40_000);
  });

  it("shows at most 20 refusals, after the elements, each address cut", async () => {
    await read(); // Clears what earlier pages had refused.
    await navigate(`/many-refused?other=${encodeURIComponent(site.otherAddress)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const snapshot = await read();
    const content = snapshot.content;
    expect(content.indexOf("\\#\\# Blocked by the egress policy (30)")).toBeGreaterThan(
      content.indexOf('button "Last"'),
    );
    expect(content.split("\n").filter((line) => line.startsWith(`- ${site.otherAddress}/`))).toHaveLength(20);
    expect(content).toContain("(and 10 more)");
    expect(content).not.toMatch(/x{300}/);
    const data = snapshot.data as { blocked: { url: string }[]; blockedTotal: number };
    expect(data.blocked).toHaveLength(20);
    expect(data.blockedTotal).toBe(30);
    expect(Math.max(...data.blocked.map((refusal) => refusal.url.length))).toBeLessThanOrEqual(201);
    expect(site.forbiddenHits()).toBe(0);
  });

  it("reports a redirect to a name that does not resolve as a failed load, not a refusal", async () => {
    await read();
    const to = `http://no-such-host.invalid:${site.port}/`;
    const failure = failed(
      await browser.call("browser_navigate", {
        url: `${site.origin}/redirect?to=${encodeURIComponent(to)}`,
        sessionId,
      }),
    );
    expect(failure.code).toBe("upstream_error");
    expect(failure.message).toMatch(/no-such-host\.invalid.*could not be loaded: could not resolve/);
    expect((await read()).content).not.toContain("Blocked by");
  });

  it("refuses a URL the policy refuses before Chromium sees it", async () => {
    const refused = failed(
      await browser.call("browser_navigate", { url: `${site.otherAddress}/form`, sessionId }),
    );
    expect(refused.code).toBe("egress_refused");
    expect(refused.details?.rule).toBe("loopback");
    const port = failed(await browser.call("browser_navigate", { url: `${site.otherPort}/`, sessionId }));
    expect(port.details?.rule).toBe("port");
    expect(
      failed(await browser.call("browser_navigate", { url: "file:///etc/passwd", sessionId })).code,
    ).toBe("invalid_input");
  });

  it("refuses a redirect to a loopback or private address: the navigation fails and nothing is reached", async () => {
    for (const [to, rule] of [
      [`${site.otherAddress}/secret`, "loopback"],
      ["http://10.11.12.13/secret", "private"],
      [`https://127.0.0.2:${site.port}/secret`, "loopback"],
    ] as const) {
      const refused = failed(
        await browser.call("browser_navigate", {
          url: `${site.origin}/redirect?to=${encodeURIComponent(to)}`,
          sessionId,
        }),
      );
      expect(refused.code, to).toBe("egress_refused");
      expect(refused.details?.rule, to).toBe(rule);
      expect(refused.message).toContain(new URL(to).host);
    }
    expect(site.forbiddenHits()).toBe(0);
  });

  it("loads a page while refusing its subresources on other addresses and ports, and says which", async () => {
    await read(); // Reports, and so clears, what earlier tests' pages had refused.
    const query = `other=${encodeURIComponent(site.otherAddress)}&port=${encodeURIComponent(site.otherPort)}`;
    await navigate(`/subresources?${query}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const snapshot = await read();
    expect(snapshot.content).toContain("Own text loads.");
    expect(snapshot.content).toContain("fetch failed");
    expect(snapshot.content).toContain("Blocked by the egress policy");
    expect(snapshot.content).toContain(`${site.otherAddress}/pixel.png (loopback)`);
    expect(snapshot.content).toContain("http://10.11.12.13/x.js (private)");
    expect(snapshot.content).toContain(`${site.otherPort}/data (port)`);
    const blocked = (snapshot.data as { blocked: { url: string; rule: string }[] }).blocked;
    expect(blocked).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ url: `${site.otherAddress}/pixel.png`, rule: "loopback" }),
        expect.objectContaining({ url: "http://10.11.12.13/x.js", rule: "private" }),
        expect.objectContaining({ url: `${site.otherPort}/data`, rule: "port" }),
      ]),
    );
    expect(site.forbiddenHits()).toBe(0);
    // Reported once: the next read lists only what was refused since.
    expect((await read()).content).not.toContain("Blocked by");
  });

  it("opens a websocket to the allowed origin and refuses one to another address", async () => {
    await navigate(`/websocket?to=${encodeURIComponent(`ws://127.0.0.1:${site.port}/socket`)}`);
    await expect.poll(async () => (await read()).content, { timeout: 5_000 }).toContain("message: hello");
    await navigate(`/websocket?to=${encodeURIComponent(`ws://127.0.0.2:${site.port}/socket`)}`);
    await expect.poll(async () => (await read()).content, { timeout: 5_000 }).toContain("socket failed");
    expect(site.forbiddenHits()).toBe(0);
  });

  it("keeps a download as an untrusted artifact and names it in the click's answer", async () => {
    await navigate("/downloads");
    const snapshot = await read();
    const clicked = ok(
      await browser.call("browser_click", { sessionId, reference: reference(snapshot, /Get the report/) }),
    );
    expect(clicked.content).toMatch(/report\.csv \(20 bytes\): artifact:\/\//);
    const kept = browser.artifacts.kept.find((artifact) => artifact.name === "report.csv");
    expect(Buffer.from(kept?.bytes ?? []).toString()).toBe("name,count\nwidget,3\n");
    expect(kept?.provenance).toEqual({ source: `${site.origin}/report.csv`, trusted: false });
  });

  it("stores a screenshot as an artifact, never inline", async () => {
    const shot = ok(await browser.call("browser_screenshot", { sessionId }));
    expect(shot.content).toMatch(
      /^Screenshot of .* \(\d+ bytes\): artifact:\/\/[0-9a-f]{64}\/screenshot\.png$/,
    );
    const kept = browser.artifacts.kept.find((artifact) => artifact.name === "screenshot.png");
    expect(
      Buffer.from(kept?.bytes ?? [])
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("sends no WebRTC datagram past the proxy: ICE gathers no candidate and the STUN server hears nothing", async () => {
    await navigate(`/webrtc?port=${site.udpPort}`);
    await expect.poll(async () => (await read()).content, { timeout: 5_000 }).toContain("gathered:");
    expect((await read()).content).toContain("gathered: none");
    expect(site.forbiddenHits()).toBe(0);
  });

  it("blocks service workers, which would otherwise answer the page's requests themselves", async () => {
    await navigate("/service-worker");
    await expect.poll(async () => (await read()).content, { timeout: 5_000 }).toContain("no service workers");
  });

  it("knows a session only to its own run", async () => {
    const other = failed(await browser.call("browser_read", { sessionId }, "r2"));
    expect(other.code).toBe("precondition_failed");
    expect(other.message).toContain("no browser session");
  });
});
