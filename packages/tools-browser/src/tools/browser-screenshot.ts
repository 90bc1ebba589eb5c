/** @module `browser_screenshot`: the session's visible page as a PNG, kept as an artifact and never inlined. */

import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { browserTool } from "../browser-env.js";
import { sessionIdField } from "../browser-inputs.js";

export const browserScreenshot = browserTool({
  name: "browser_screenshot",
  description:
    "Takes a PNG screenshot of the visible part of the page in a browser session and keeps it as a file; returns its artifact URI, not the image. " +
    "Use it when someone needs to see the page; to know what it says, use browser_read.",
  category: "web",
  effect: "read",
  cost: "io",
  available: (env) => env.artifacts !== undefined,
  input: z.object({ sessionId: sessionIdField }),
  async run({ sessionId }, context, { sessions, artifacts }) {
    if (!artifacts)
      throw new ToolFailure("precondition_failed", "no artifact store is configured for screenshots");
    const shot = await sessions.get(context, sessionId).screenshot();
    const artifact = await artifacts.put({
      tenantId: context.tenantId,
      name: "screenshot.png",
      mediaType: "image/png",
      bytes: shot.bytes,
      provenance: { source: shot.url, trusted: false },
    });
    return {
      content: `Screenshot of ${shot.url} (${artifact.size} bytes): ${artifact.uri}`,
      data: { sessionId, url: shot.url, ...artifact },
    };
  },
});
