/**
 * @module The browser toolkit: Chromium driven through playwright-core, one session per run, every request the
 * page makes checked by toolreg's egress policy at a proxy of its own, with lifetime, page, memory and
 * concurrency caps. The escalation after web_scrape, never the default.
 */
import { defineToolkit } from "toolreg/toolkit";
import { BrowserConfigSchema } from "./browser-config.js";
import type { BrowserEnv } from "./browser-env.js";
import { BrowserSessions } from "./browser-sessions.js";
import { browserTools } from "./tools/index.js";

export const browserToolkit = defineToolkit({
  id: "browser",
  version: "0.1.0",
  package: "@toolreg/tools-browser",
  description:
    "A governed browser for pages that need one (scripts, clicks, forms): navigate, read as text, click, type, screenshot.",
  config: BrowserConfigSchema,
  auth: { kind: "none" },
  // Any host the operator's policy allows: the URL is the call's.
  openWorld: true,
  tools: browserTools,
  reviewedOverrides: [{ tool: "browser_navigate", field: "approval" }],
  bind(config, host): BrowserEnv {
    const sessions = new BrowserSessions(config, host.egress(), host.artifacts);
    host.onClose(() => sessions.closeAll());
    return { sessions, artifacts: host.artifacts };
  },
});
