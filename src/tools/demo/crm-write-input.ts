/**
 * @module crm_write's input. Providers want one flat object of parameters (a top-level union is refused by
 * some), so the schema is flat and its validation turns it into a union by action: a field the action needs
 * and the call lacks is an invalid_input naming that field, before any approval is asked for.
 */
import { z } from "zod";
import { idField, lineField, textField } from "./demo-fields.js";

export type CrmWrite =
  | { action: "create_contact"; firstName: string; lastName: string; email: string }
  | { action: "log_activity"; contactId: number; subject: string; body: string };

type Action = CrmWrite["action"];

/** The fields each action needs; the other action's fields are ignored. */
const NEEDS = {
  create_contact: ["firstName", "lastName", "email"],
  log_activity: ["contactId", "subject", "body"],
} as const satisfies Record<Action, readonly string[]>;

const crmWriteFields = z.object({
  action: z
    .enum(["create_contact", "log_activity"])
    .describe("create_contact adds a person; log_activity records a call, meeting or note on a contact"),
  firstName: lineField(100, "create_contact: the contact's first name").optional(),
  lastName: lineField(100, "create_contact: the contact's last name").optional(),
  email: z.email().max(254).describe("create_contact: the contact's email address").optional(),
  contactId: idField("log_activity: the id of the contact the activity concerns (from crm_read)").optional(),
  subject: lineField(200, "log_activity: a one-line summary, e.g. 'Call about renewal'").optional(),
  body: textField("log_activity: what happened or was agreed", 1).optional(),
});

export const crmWriteInput = crmWriteFields.transform((fields, context): CrmWrite => {
  const missing = NEEDS[fields.action].filter((field) => fields[field] === undefined);
  for (const field of missing) {
    context.addIssue({ code: "custom", path: [field], message: `required for ${fields.action}` });
  }
  if (missing.length > 0) return z.NEVER;
  const picked = Object.fromEntries(NEEDS[fields.action].map((field) => [field, fields[field]]));
  return { action: fields.action, ...picked } as CrmWrite;
});
