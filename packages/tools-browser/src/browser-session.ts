/**
 * @module One browser session: a Chromium of its own (its own process group) behind its own egress proxy, one
 * page, the element references of its last snapshot, the requests its policy refused and the files it
 * downloaded. Every operation runs one at a time; caps close the session and say why.
 */
import { randomBytes } from "node:crypto";
import { readFile, rm, stat } from "node:fs/promises";
import type { Browser, BrowserContext, Download, ElementHandle, Page, Request } from "playwright-core";
import { type ArtifactStore, type EgressClient, ToolFailure } from "toolreg/toolkit";
import type { BrowserConfig } from "./browser-config.js";
import {
  groupCarries,
  groupGone,
  groupResidentBytes,
  killSessionGroup,
  launchChromium,
} from "./chromium-process.js";
import {
  type EgressProxy,
  FAILED_HEADER,
  type FailedRequest,
  REFUSED_HEADER,
  type RefusedRequest,
  startEgressProxy,
} from "./egress-proxy.js";
import {
  firstLine,
  gotoSettled,
  isSelect,
  navigationFailure,
  pickSettled,
  typingRefusal,
} from "./page-actions.js";
import { describeElement } from "./page-snapshot.js";
import { type DownloadOutcome, renderSnapshot } from "./snapshot-text.js";

const MAX_KEPT_REFUSALS = 200;

/** Removes `navigator.serviceWorker`: a worker would outlive the page and answer its requests itself. */
const NO_SERVICE_WORKERS = "delete Navigator.prototype.serviceWorker;";

export interface SessionOwner {
  tenantId: string;
  principalId: string;
  runId: string;
}

export interface SessionDependencies {
  config: BrowserConfig;
  egress: EgressClient;
  artifacts: ArtifactStore | undefined;
  /** Told once when the session ends, for whatever reason. */
  onClosed(session: BrowserSession, reason: string): void;
}

export interface Snapshot {
  content: string;
  title: string;
  url: string;
  references: number;
  refused: RefusedRequest[];
}

interface SessionParts {
  proxy: EgressProxy;
  browser: Browser;
  group: number;
  /** The switch (and environment value) that names this session's processes. */
  marker: string;
  profileDir: string | undefined;
  context: BrowserContext;
  page: Page;
}

export class BrowserSession {
  readonly id = `bs_${randomBytes(8).toString("hex")}`;
  readonly owner: SessionOwner;
  readonly startedAt = Date.now();
  pagesLoaded = 0;
  #closed: string | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #references = new Map<string, ElementHandle>();
  #nextReference = 1;
  #refused: RefusedRequest[] = [];
  #refusedTotal = 0;
  #refusedReported = 0;
  /** Recent loads the proxy could not make (a name that did not resolve), by URL as the proxy shows it. */
  #failed: FailedRequest[] = [];
  #downloads: DownloadOutcome[] = [];
  #pendingDownloads = new Set<Promise<void>>();
  #timers: NodeJS.Timeout[] = [];
  #parts: SessionParts | undefined;
  readonly #dependencies: SessionDependencies;

  constructor(owner: SessionOwner, dependencies: SessionDependencies) {
    this.owner = owner;
    this.#dependencies = dependencies;
  }

  /** Starts the proxy and Chromium; on failure everything started is stopped again. */
  async start(): Promise<void> {
    const { config, egress } = this.#dependencies;
    const proxy = await startEgressProxy({
      egress,
      ports: config.ports,
      onRefused: (refusal) => this.#recordRefusal(refusal),
      onFailed: (failure) => this.#recordFailure(failure),
      maxTrafficBytes: trafficCap(config),
      onOverBudget: (bytes) =>
        void this.close(
          `its traffic passed ${trafficCap(config)} bytes (${bytes} carried), the most one session may move`,
        ),
      tunnelIdleMs: config.tunnelIdleMs,
      maxTunnels: config.maxTunnels,
    });
    const marker = `--toolreg-browser-session=${this.id}`;
    try {
      const { browser, group, profileDir } = await launchChromium({
        executablePath: config.executablePath,
        proxyUrl: proxy.url,
        marker,
        sandbox: config.sandbox ?? process.getuid?.() !== 0,
        heapMiB: config.rendererHeapMiB,
        timeoutMs: 15_000,
      });
      try {
        const context = await browser.newContext({
          serviceWorkers: "block",
          acceptDownloads: this.#dependencies.artifacts !== undefined,
          javaScriptEnabled: true,
          viewport: { width: 1280, height: 800 },
        });
        // Playwright's "block" still lets a page register a worker in this Chromium; a page without the
        // API cannot. Init scripts run in every frame before the page's own scripts.
        await context.addInitScript(NO_SERVICE_WORKERS);
        const page = await context.newPage();
        page.setDefaultTimeout(config.navigationTimeoutMs);
        this.#parts = { proxy, browser, group, marker, profileDir, context, page };
        this.#watch(browser, context, page);
      } catch (error) {
        killSessionGroup(group, marker);
        throw error;
      }
    } catch (error) {
      await proxy.close();
      throw error;
    }
    this.#timers.push(
      setTimeout(() => void this.close(`its lifetime of ${config.lifetimeMs} ms ran out`), config.lifetimeMs),
      setInterval(() => this.#checkMemory(), 1_000),
    );
    for (const timer of this.#timers) timer.unref();
  }

  get closedReason(): string | undefined {
    return this.#closed;
  }

  /** The Chromium process group, for tests and the memory check. */
  get processGroup(): number | undefined {
    return this.#parts?.group;
  }

  /** Loads a URL (already checked by the caller's egress policy) and reports where it ended. */
  navigate(url: string) {
    return this.#run(async ({ page }) => {
      this.#countPage();
      let status: number | undefined;
      let hop = url;
      // Each redirect hop is a navigation request of its own: the last one is where it stopped.
      const onRequest = (request: Request) => {
        if (request.isNavigationRequest() && request.frame() === page.mainFrame()) hop = request.url();
      };
      page.on("request", onRequest);
      try {
        const response = await gotoSettled(page, url);
        if (response?.headers()[REFUSED_HEADER]) this.#throwRefused(url, response.url());
        if (response?.headers()[FAILED_HEADER]) {
          throw (
            this.#loadFailure(url, response.url()) ??
            navigationFailure(new Error("the proxy could not reach it"), url)
          );
        }
        status = response?.status();
      } catch (error) {
        // A failed load leaves Chromium committing its error page; let that finish on a blank page, so
        // the next navigation is not interrupted by it.
        await page.waitForLoadState("load", { timeout: 2_000 }).catch(() => {});
        await page.goto("about:blank", { timeout: 2_000 }).catch(() => {});
        if (error instanceof ToolFailure) throw error;
        // A refused tunnel (HTTPS) fails the navigation itself; say which rule refused it.
        if (this.#refusalOf(hop)) this.#throwRefused(url, hop);
        const failed = this.#loadFailure(url, hop);
        if (failed) throw failed;
        throw navigationFailure(error, url);
      } finally {
        page.off("request", onRequest);
      }
      return { url: page.url(), title: await page.title(), status };
    });
  }

  /** The page as text, with fresh references; every earlier reference becomes stale. */
  read(): Promise<Snapshot> {
    return this.#run(async ({ page }) => {
      this.#invalidate();
      await this.#settleDownloads();
      const picked = await pickSettled(page);
      const lines: string[] = [];
      for (const { element, described } of picked.elements) {
        const reference = `e${this.#nextReference++}`;
        this.#references.set(reference, element);
        lines.push(describeElement(reference, described));
      }
      const refused = this.#refused.slice(
        Math.max(0, this.#refused.length - (this.#refusedTotal - this.#refusedReported)),
      );
      this.#refusedReported = this.#refusedTotal;
      const downloads = this.#downloads.splice(0);
      return {
        content: renderSnapshot(this.id, picked, lines, refused, downloads),
        title: picked.title,
        url: picked.url,
        references: lines.length,
        refused,
      };
    });
  }

  click(reference: string) {
    return this.#run(async ({ page }) => {
      const element = this.#take(reference);
      await this.#interact(page, () => element.click({ timeout: 5_000 }), reference);
      return this.#afterInteraction(page);
    });
  }

  type(reference: string, text: string, submit: boolean) {
    return this.#run(async ({ page }) => {
      const element = this.#take(reference);
      const refusal = await typingRefusal(page, element);
      if (refusal) throw new ToolFailure("invalid_input", `${reference} is ${refusal}`);
      const select = await isSelect(element);
      await this.#interact(
        page,
        async () => {
          // Checked again right before typing: the page may have changed the field since.
          const now = await typingRefusal(page, element);
          if (now) throw new ToolFailure("invalid_input", `${reference} is ${now}`);
          if (select) await element.selectOption({ label: text }, { timeout: 5_000 });
          else await element.fill(text, { timeout: 5_000 });
          if (submit) await element.press("Enter", { timeout: 5_000 });
        },
        reference,
      );
      return this.#afterInteraction(page);
    });
  }

  screenshot() {
    return this.#run(async ({ page }) => {
      const bytes = await page.screenshot({ type: "png", fullPage: false, timeout: 10_000 });
      return { bytes, url: page.url() };
    });
  }

  /** Ends the session: Chromium's whole process group killed, the proxy closed. Safe to call twice. */
  async close(reason = "it was closed"): Promise<void> {
    if (this.#closed !== undefined) return;
    this.#closed = reason;
    for (const timer of this.#timers) clearTimeout(timer);
    const parts = this.#parts;
    this.#parts = undefined;
    this.#references.clear();
    if (parts) {
      // The whole group at once: renderers, zygotes and utility processes go with the browser. Playwright
      // then sees its browser gone and removes its temporary profile.
      const killed = killSessionGroup(parts.group, parts.marker);
      await Promise.race([
        parts.browser.close().catch(() => {}),
        new Promise((resolve) => setTimeout(resolve, 500)),
      ]);
      if (killed) await groupGone(parts.group, 5_000);
      if (parts.profileDir) await rm(parts.profileDir, { recursive: true, force: true }).catch(() => {});
      await parts.proxy.close();
    }
    this.#dependencies.onClosed(this, reason);
  }

  #run<T>(operation: (parts: SessionParts) => Promise<T>): Promise<T> {
    const next = this.#queue.then(async () => {
      const parts = this.#parts;
      if (!parts || this.#closed !== undefined) throw closedFailure(this.id, this.#closed ?? "it was closed");
      // A page can stall the browser (a script that never yields blocks every evaluation): past the
      // deadline the session is ended, not left holding the queue and a Chromium.
      const limit = this.#dependencies.config.navigationTimeoutMs * 2;
      let timer: NodeJS.Timeout | undefined;
      const stalled = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          const reason = `the page did not answer within ${limit} ms`;
          void this.close(reason);
          reject(
            new ToolFailure(
              "timeout",
              `browser session ${this.id} was closed: ${reason}. Start a new one with browser_navigate`,
            ),
          );
        }, limit);
      });
      try {
        return await Promise.race([operation(parts), stalled]);
      } catch (error) {
        if (error instanceof ToolFailure) throw error;
        // Chromium went away mid-call, or Playwright failed: a failure the model can act on, not a crash.
        if (this.#closed !== undefined) throw closedFailure(this.id, this.#closed);
        throw new ToolFailure("upstream_error", `the browser failed: ${firstLine(error)}`, { cause: error });
      } finally {
        clearTimeout(timer);
      }
    });
    this.#queue = next.catch(() => {});
    return next;
  }

  #take(reference: string): ElementHandle {
    const element = this.#references.get(reference);
    if (!element) {
      throw new ToolFailure(
        "precondition_failed",
        `${reference} is not a reference of the current snapshot: references last only until the next navigation, click or typing, and each browser_read makes new ones. Call browser_read and use a reference from it`,
        { details: { reference, stale: true } },
      );
    }
    return element;
  }

  async #interact(page: Page, act: () => Promise<void>, reference: string): Promise<void> {
    // The snapshot ends with this action; the element acted on is let go once it is done.
    const element = this.#references.get(reference);
    this.#references.delete(reference);
    this.#invalidate();
    let navigated = false;
    const onNavigated = (frame: { parentFrame(): unknown }) => {
      if (frame.parentFrame() === null) navigated = true;
    };
    page.on("framenavigated", onNavigated);
    try {
      await act();
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      throw new ToolFailure(
        "precondition_failed",
        `could not act on ${reference}: ${firstLine(error)}. Call browser_read to see the page as it is now`,
      );
    } finally {
      // A click that starts a navigation does so within a moment; then wait for that page to load.
      await new Promise((resolve) => setTimeout(resolve, 250));
      page.off("framenavigated", onNavigated);
      element?.dispose().catch(() => {});
    }
    if (navigated) await page.waitForLoadState("load").catch(() => {});
  }

  async #afterInteraction(page: Page) {
    await this.#settleDownloads();
    const downloads = this.#downloads.splice(0);
    return { url: page.url(), title: await page.title().catch(() => ""), downloads };
  }

  #invalidate(): void {
    const handles = [...this.#references.values()];
    this.#references.clear();
    for (const handle of handles) handle.dispose().catch(() => {});
  }

  #countPage(): void {
    if (this.pagesLoaded >= this.#dependencies.config.maxPages) {
      throw new ToolFailure(
        "precondition_failed",
        `session ${this.id} has loaded its ${this.#dependencies.config.maxPages} pages, the most one session may; close it with browser_close and start another with browser_navigate if the task needs more`,
        { details: { cap: "pages" } },
      );
    }
  }

  #watch(browser: Browser, context: BrowserContext, page: Page): void {
    const { config } = this.#dependencies;
    // A Chromium that died (killed, crashed, out of memory) ends the session, which says so.
    browser.on("disconnected", () => void this.close("Chromium exited"));
    page.on("crash", () => void this.close("its page crashed"));
    page.on("load", () => {
      this.pagesLoaded += 1;
      if (this.pagesLoaded > config.maxPages) void this.close(`it loaded more than ${config.maxPages} pages`);
    });
    page.on("framenavigated", (frame) => {
      // The page moved on by itself (a script, a refresh): its references point at a document that is gone.
      if (frame === page.mainFrame()) this.#invalidate();
    });
    // One page per session: a popup is closed as soon as it opens.
    context.on("page", (other) => {
      if (other !== page) other.close().catch(() => {});
    });
    page.on("download", (download) => {
      const pending = this.#keepDownload(download).finally(() => this.#pendingDownloads.delete(pending));
      this.#pendingDownloads.add(pending);
    });
  }

  async #keepDownload(download: Download): Promise<void> {
    const name = safeFileName(download.suggestedFilename());
    const artifacts = this.#dependencies.artifacts;
    try {
      const path = await download.path();
      const size = (await stat(path)).size;
      if (!artifacts) throw new Error("no artifact store is configured");
      if (size > this.#dependencies.config.maxDownloadBytes) {
        throw new Error(
          `it is ${size} bytes, over the ${this.#dependencies.config.maxDownloadBytes}-byte cap`,
        );
      }
      const artifact = await artifacts.put({
        tenantId: this.owner.tenantId,
        name,
        mediaType: "application/octet-stream",
        bytes: await readFile(path),
        provenance: { source: download.url(), trusted: false },
      });
      this.#downloads.push({ artifact });
    } catch (error) {
      this.#downloads.push({ name, refused: firstLine(error) });
    } finally {
      await download.delete().catch(() => {});
    }
  }

  async #settleDownloads(): Promise<void> {
    await Promise.race([
      Promise.all([...this.#pendingDownloads]),
      new Promise((resolve) => setTimeout(resolve, 5_000)),
    ]);
  }

  #recordFailure(failure: FailedRequest): void {
    this.#failed.push(failure);
    if (this.#failed.length > MAX_KEPT_REFUSALS) this.#failed.shift();
  }

  /** The failure for a navigation that stopped at a load the proxy could not make, if it did. */
  #loadFailure(url: string, hop: string): ToolFailure | undefined {
    let parsed: URL;
    try {
      parsed = new URL(hop);
    } catch {
      return undefined;
    }
    const tunnel = `https://${parsed.port ? parsed.host : `${parsed.host}:443`}`;
    const named = `${parsed.origin}${parsed.pathname}`;
    const failure = this.#failed.findLast((failed) => failed.url === named || failed.url === tunnel);
    if (!failure) return undefined;
    return new ToolFailure(
      "upstream_error",
      `loading ${url} reached ${failure.url}, which could not be loaded: ${failure.message}`,
      {
        retryable: failure.retryable,
        details: { url, failed: failure.url },
      },
    );
  }

  #recordRefusal(refusal: RefusedRequest): void {
    this.#refusedTotal += 1;
    this.#refused.push(refusal);
    if (this.#refused.length > MAX_KEPT_REFUSALS) this.#refused.shift();
  }

  /** The latest refusal of `url`: by its path for plain HTTP, by host and port for a tunnel. */
  #refusalOf(url: string): RefusedRequest | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    const tunnel = `https://${parsed.port ? parsed.host : `${parsed.host}:443`}`;
    const named = `${parsed.origin}${parsed.pathname}`;
    return this.#refused.findLast((refusal) => refusal.url === named || refusal.url === tunnel);
  }

  #throwRefused(url: string, hop: string): never {
    const refusal = this.#refusalOf(hop);
    throw new ToolFailure(
      "egress_refused",
      refusal
        ? `loading ${url} reached ${refusal.url}, which the egress policy refused (${refusal.rule}): ${refusal.message}`
        : `the egress policy refused ${url}`,
      { details: { url, ...(refusal ? { refused: refusal.url, rule: refusal.rule } : {}) } },
    );
  }

  #checkMemory(): void {
    const parts = this.#parts;
    if (!parts) return;
    if (!groupCarries(parts.group, parts.marker)) {
      void this.close("Chromium exited");
      return;
    }
    const bytes = groupResidentBytes(parts.group);
    if (bytes > this.#dependencies.config.maxMemoryBytes) {
      void this.close(
        `its Chromium used ${bytes} bytes of memory, over the ${this.#dependencies.config.maxMemoryBytes}-byte cap`,
      );
    }
  }
}

/** The traffic one session's proxy may carry: as configured, or ten downloads' worth, within 2 GiB. */
export function trafficCap(config: BrowserConfig): number {
  return config.maxTrafficBytes ?? Math.min(config.maxDownloadBytes * 10, 2 * 1024 * 1024 * 1024);
}

/** The failure for a session that no longer exists. */
export function closedFailure(id: string, reason: string): ToolFailure {
  return new ToolFailure(
    "precondition_failed",
    `browser session ${id} is closed: ${reason}. Start a new one with browser_navigate`,
    { details: { sessionId: id, closed: reason } },
  );
}

function safeFileName(name: string): string {
  const cleaned = name
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/^[._]+/, "")
    .slice(0, 96);
  return cleaned || "download";
}
