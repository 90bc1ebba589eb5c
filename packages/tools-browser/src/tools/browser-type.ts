/** @module `browser_type`: types into a field (or picks an option) named by a reference from the last read. */
import { z } from "zod";
import { browserTool } from "../browser-env.js";
import { referenceField, sessionIdField } from "../browser-inputs.js";
import { interactionOutput } from "./interaction-output.js";

export const browserType = browserTool({
  name: "browser_type",
  description:
    "Types text into an input or text area in a browser session (replacing what it held), or picks a select's option by its label, naming the field by its reference from the last browser_read; submit presses Enter after. " +
    "Refuses password fields, sign-in forms, fields outside any form on a page that has a password field, and file inputs: no credential goes through this tool, so ask the user to sign in themselves. " +
    "Typing ends that snapshot: call browser_read again before the next action.",
  category: "web",
  effect: "internal-write",
  cost: "io",
  limits: { timeoutMs: 30_000, outputBytes: 16 * 1024 },
  input: z.object({
    sessionId: sessionIdField,
    reference: referenceField,
    text: z.string().max(2_000).describe("the text to type, or the label of the option to pick"),
    submit: z.boolean().default(false).describe("press Enter after typing, e.g. to send a search"),
  }),
  async run({ sessionId, reference, text, submit }, context, { sessions }) {
    const after = await sessions.get(context, sessionId).type(reference, text, submit);
    return interactionOutput(
      `Typed into ${reference}${submit ? " and pressed Enter" : ""}`,
      sessionId,
      after,
    );
  },
});
