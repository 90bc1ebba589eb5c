/** @module `browser_navigate`: loads a URL in the caller's browser session, starting the session if needed. */
import { z } from "zod";
import { browserTool } from "../browser-env.js";
import { sessionIdField, urlField } from "../browser-inputs.js";

export const browserNavigate = browserTool({
  name: "browser_navigate",
  description:
    "Drives a real Chromium browser to a URL, for sites that only work in a browser: content built by scripts, or a task that needs clicking and typing. " +
    "Not the first choice: web_scrape gets a page's content without a browser, so try it first. " +
    "Starts the run's browser session (or moves it on) and returns the title, the address it ended at and the session id the other browser_ tools take. Every request the browser makes is checked by the egress policy. Next, call browser_read.",
  category: "web",
  effect: "read",
  approval: "always",
  overrideReason:
    "a driven browser carries a session (cookies, a page's scripts acting for the user), so each navigation a model starts is approved by a person",
  cost: "io",
  limits: { timeoutMs: 60_000, outputBytes: 16 * 1024 },
  input: z.object({
    url: urlField,
    sessionId: sessionIdField
      .optional()
      .describe("the run's session, when it has one; a new one starts when omitted"),
  }),
  async run({ url, sessionId }, context, { sessions }) {
    const target = new URL(url);
    await sessions.check(target, context.signal);
    if (sessionId !== undefined) sessions.get(context, sessionId);
    const { session, started } = await sessions.openFor(context);
    const loaded = await session.navigate(target.href);
    return {
      content: `Loaded "${loaded.title}" at ${loaded.url}${loaded.status ? ` (HTTP ${loaded.status})` : ""} in browser session ${session.id}${started ? " (new)" : ""}. Call browser_read with this session id to see its text and elements.`,
      data: { sessionId: session.id, started, ...loaded },
      provenance: { source: loaded.url, trusted: false },
    };
  },
});
