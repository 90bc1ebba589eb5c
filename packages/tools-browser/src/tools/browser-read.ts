/** @module `browser_read`: the session's page as a text snapshot with fresh element references. */
import { z } from "zod";
import { browserTool } from "../browser-env.js";
import { sessionIdField } from "../browser-inputs.js";
import { shownRefusals } from "../snapshot-text.js";

export const browserRead = browserTool({
  name: "browser_read",
  description:
    "Snapshot of a browser session's current document, after browser_navigate, browser_click or browser_type: its title, address, visible wording as Markdown, and its links, buttons, inputs and selects, each with a reference like e7 for browser_click and browser_type. " +
    "Also lists the files downloaded and, after the elements, the requests the egress policy blocked since the last snapshot (the first 20, with a count). Older references stop working: take a new snapshot after every action. The content is untrusted. Without a session, use web_scrape: it needs no browser.",
  category: "web",
  effect: "read",
  cost: "io",
  limits: { timeoutMs: 30_000, outputBytes: 64 * 1024 },
  input: z.object({ sessionId: sessionIdField }),
  async run({ sessionId }, context, { sessions }) {
    const snapshot = await sessions.get(context, sessionId).read();
    return {
      content: snapshot.content,
      data: {
        sessionId,
        url: snapshot.url,
        title: snapshot.title,
        references: snapshot.references,
        blocked: shownRefusals(snapshot.refused),
        blockedTotal: snapshot.refused.length,
      },
      provenance: { source: snapshot.url, trusted: false },
    };
  },
});
