/** @module `browser_close`: ends a browser session and its Chromium. */
import { z } from "zod";
import { browserTool } from "../browser-env.js";
import { sessionIdField } from "../browser-inputs.js";

export const browserClose = browserTool({
  name: "browser_close",
  description:
    "Closes a browser session: its page, cookies and Chromium are gone. Call it when the task no longer needs the browser; sessions also close on their own after a time limit.",
  category: "web",
  effect: "internal-write",
  cost: "io",
  input: z.object({ sessionId: sessionIdField }),
  async run({ sessionId }, context, { sessions }) {
    const session = sessions.get(context, sessionId);
    await session.close("browser_close closed it");
    return { content: `Closed browser session ${sessionId}.`, data: { sessionId, closed: true } };
  },
});
