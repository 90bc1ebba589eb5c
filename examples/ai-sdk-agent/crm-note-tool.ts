/** @module The example's own tool: a write to an outside system, so every call waits for a human's yes. */
import { z } from "zod";
import { defineTool } from "../../src/index.js";

export interface CrmNote {
  account: string;
  text: string;
}

/**
 * `crm_note_write`, appending to `notebook`. The list stands in for a CRM's API: a real tool would call
 * it here, and the example can show exactly how many writes happened.
 */
export function createCrmNoteWriteTool(notebook: CrmNote[]) {
  return defineTool({
    name: "crm_note_write",
    description: "Appends a note to a customer account in the CRM, for everyone who works that account.",
    category: "crm",
    // Derived from the effect: approval always, and an idempotency key, so a retried call writes once.
    effect: "external-write",
    input: z.object({
      account: z.string().min(1).max(100).describe("the account's id, e.g. acme-corp"),
      text: z.string().min(1).max(2_000).describe("the note"),
    }),
    run({ account, text }) {
      notebook.push({ account, text });
      return { content: `Noted on ${account}: ${text}`, data: { notes: notebook.length } };
    },
  });
}
