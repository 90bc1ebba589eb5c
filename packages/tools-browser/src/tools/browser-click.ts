/** @module `browser_click`: clicks an element named by a reference from the last read. */
import { z } from "zod";
import { browserTool } from "../browser-env.js";
import { referenceField, sessionIdField } from "../browser-inputs.js";
import { interactionOutput } from "./interaction-output.js";

export const browserClick = browserTool({
  name: "browser_click",
  description:
    "Clicks a link, button or other element in a browser session, named by its reference (e.g. e7) from the last browser_read; never by position. " +
    "The click ends that snapshot: call browser_read again before the next click or typing. A file the click downloads is kept as an artifact.",
  category: "web",
  effect: "internal-write",
  cost: "io",
  limits: { timeoutMs: 30_000, outputBytes: 16 * 1024 },
  input: z.object({ sessionId: sessionIdField, reference: referenceField }),
  async run({ sessionId, reference }, context, { sessions }) {
    const after = await sessions.get(context, sessionId).click(reference);
    return interactionOutput(`Clicked ${reference}`, sessionId, after);
  },
});
