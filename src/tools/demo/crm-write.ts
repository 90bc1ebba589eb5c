/** @module `crm_write`: creates a contact or logs an activity in the tenant's demo CRM, in one transaction. */
import type Database from "better-sqlite3";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { ToolContext } from "../../seam/context.js";
import { type CrmWrite, crmWriteInput } from "./crm-write-input.js";
import { demoTool } from "./demo-env.js";
import { DEMO_WRITE_LIMITS } from "./demo-fields.js";
import { inTenantTransaction, nextId } from "./tenant-transaction.js";

type Created = { content: string; data: { action: CrmWrite["action"]; id: number } };

function createContact(
  db: Database.Database,
  context: ToolContext,
  { firstName, lastName, email }: Extract<CrmWrite, { action: "create_contact" }>,
): Created {
  // An email names one person: a retried call finds its contact instead of making a twin.
  const existing = db
    .prepare("SELECT id FROM contacts WHERE tenant_id = ? AND email = ? COLLATE NOCASE")
    .get(context.tenantId, email) as { id: number } | undefined;
  if (existing) {
    throw new ToolFailure("invalid_input", `contact ${existing.id} already has the email ${email}`, {
      details: { contactId: existing.id },
    });
  }
  const id = nextId(db, "contacts", context.tenantId);
  db.prepare("INSERT INTO contacts (tenant_id, id, first_name, last_name, email) VALUES (?, ?, ?, ?, ?)").run(
    context.tenantId,
    id,
    firstName,
    lastName,
    email,
  );
  return {
    content: `Created contact ${id}: ${firstName} ${lastName} <${email}>.`,
    data: { action: "create_contact", id },
  };
}

function logActivity(
  db: Database.Database,
  context: ToolContext,
  { contactId, subject, body }: Extract<CrmWrite, { action: "log_activity" }>,
): Created {
  const contact = db
    .prepare("SELECT first_name || ' ' || last_name AS name FROM contacts WHERE tenant_id = ? AND id = ?")
    .get(context.tenantId, contactId) as { name: string } | undefined;
  if (!contact) {
    throw new ToolFailure(
      "invalid_input",
      `there is no contact ${contactId}; crm_read with entity "contacts" lists them`,
    );
  }
  const id = nextId(db, "activities", context.tenantId);
  db.prepare(
    "INSERT INTO activities (tenant_id, id, contact_id, subject, body, logged_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  ).run(context.tenantId, id, contactId, subject, body, context.principalId, new Date().toISOString());
  return {
    content: `Logged activity ${id} on contact ${contactId} (${contact.name}): ${subject}.`,
    data: { action: "log_activity", id },
  };
}

export const crmWriteSpec = demoTool({
  name: "crm_write",
  description:
    "Changes the demo CRM: action create_contact adds a person (firstName, lastName, email), action log_activity records a call, meeting or note on an existing contact (contactId, subject, body). " +
    "Pick it after crm_read, once you know the contact's id or that the person is not there yet; an email already on file is refused. " +
    "Returns the new record's id. Fields of the other action are ignored.",
  category: "crm",
  effect: "internal-write",
  cost: "io",
  input: crmWriteInput,
  limits: DEMO_WRITE_LIMITS,
  run(input, context, { path }) {
    return inTenantTransaction(path, context.tenantId, (db) =>
      input.action === "create_contact" ? createContact(db, context, input) : logActivity(db, context, input),
    );
  },
});
