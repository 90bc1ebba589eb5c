import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { demoTools } from "./index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolreg-demo-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function setUp() {
  return createTestHarness(demoTools({ demoDb: join(dir, "demo.db") }));
}

function rowsOf(envelope: Envelope): Record<string, unknown>[] {
  if (!envelope.ok) throw new Error(`expected rows, got ${JSON.stringify(envelope.error)}`);
  return (envelope.data as { rows: Record<string, unknown>[] }).rows;
}

describe("crm_read", () => {
  it("lists each entity with its own columns and a text table", async () => {
    const { seam, context } = setUp();
    const contacts = await seam.call(context(), "crm_read", { entity: "contacts" });
    expect(rowsOf(contacts)[0]).toEqual({
      id: 1,
      firstName: "Maya",
      lastName: "Okafor",
      email: "maya.okafor@northwind.example",
      title: "Head of Purchasing",
      company: "Northwind Trading",
      activities: 0,
    });
    expect(contacts.ok && contacts.content).toMatch(/^10 of the contacts:\nid +\| firstName/);

    const companies = rowsOf(await seam.call(context(), "crm_read", { entity: "companies" }));
    expect(companies.map((company) => [company.name, company.contacts])).toEqual([
      ["Northwind Trading", 3],
      ["Bluefin Analytics", 3],
      ["Harbor & Pine Dental", 2],
      ["Quarry Lane Builders", 1],
    ]);

    const leads = rowsOf(await seam.call(context(), "crm_read", { entity: "leads" }));
    expect(leads[1]).toEqual({
      id: 2,
      title: "Analytics platform renewal",
      stage: "proposal",
      amountUsd: 120_000,
      company: "Bluefin Analytics",
      contact: "Jonas Berg",
    });
  });

  it("filters by a case-insensitive text across names, emails, companies and stages", async () => {
    const { seam, context } = setUp();
    const byCompany = rowsOf(
      await seam.call(context(), "crm_read", { entity: "contacts", query: "bluefin" }),
    );
    expect(byCompany.map((contact) => contact.id)).toEqual([4, 5, 6]);
    const byFullName = rowsOf(
      await seam.call(context(), "crm_read", { entity: "contacts", query: "maya okafor" }),
    );
    expect(byFullName.map((contact) => contact.id)).toEqual([1]);
    const byStage = rowsOf(await seam.call(context(), "crm_read", { entity: "leads", query: "WON" }));
    expect(byStage.map((lead) => lead.title)).toEqual(["Data team onboarding"]);
    const none = await seam.call(context(), "crm_read", { entity: "companies", query: "nobody" });
    expect(none).toMatchObject({ ok: true, content: 'No companies matching "nobody".', data: { rows: [] } });
  });

  it("stops at the limit and says that more match", async () => {
    const { seam, context } = setUp();
    const limited = await seam.call(context(), "crm_read", { entity: "contacts", limit: 3 });
    expect(rowsOf(limited).map((contact) => contact.id)).toEqual([1, 2, 3]);
    expect(limited).toMatchObject({ ok: true, data: { more: true } });
    expect(limited.ok && limited.content).toMatch(/more match/);
    const exact = await seam.call(context(), "crm_read", { entity: "companies", limit: 4 });
    expect(exact).toMatchObject({ ok: true, data: { more: false } });
    for (const limit of [0, 101, 2.5]) {
      expect(await seam.call(context(), "crm_read", { entity: "leads", limit })).toMatchObject({
        ok: false,
        error: { code: "invalid_input" },
      });
    }
  });

  it("shows a tenant only its own records", async () => {
    const { seam, context } = setUp();
    await seam.call(context({ tenantId: "t2" }), "crm_write", {
      action: "create_contact",
      firstName: "Only",
      lastName: "Tenant-Two",
      email: "only@two.example",
    });
    expect(rowsOf(await seam.call(context(), "crm_read", { entity: "contacts", query: "only" }))).toEqual([]);
    const own = rowsOf(
      await seam.call(context({ tenantId: "t2" }), "crm_read", { entity: "contacts", query: "only" }),
    );
    expect(own).toMatchObject([{ id: 11, lastName: "Tenant-Two" }]);
  });
});

describe("crm_write", () => {
  it("creates a contact and returns its id", async () => {
    const { seam, context } = setUp();
    const created = await seam.call(context(), "crm_write", {
      action: "create_contact",
      firstName: "  Grace ",
      lastName: "Hopper",
      email: "grace@navy.example",
    });
    expect(created).toEqual({
      ok: true,
      content: "Created contact 11: Grace Hopper <grace@navy.example>.",
      data: { action: "create_contact", id: 11 },
    });
    const found = rowsOf(await seam.call(context(), "crm_read", { entity: "contacts", query: "grace" }));
    expect(found).toMatchObject([{ id: 11, firstName: "Grace", company: null, title: null }]);
  });

  it("refuses a second contact with an email already on file, whatever its case", async () => {
    const { seam, context } = setUp();
    const twin = await seam.call(context(), "crm_write", {
      action: "create_contact",
      firstName: "Maya",
      lastName: "Okafor",
      email: "MAYA.OKAFOR@northwind.example",
    });
    expect(twin).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message: expect.stringContaining("contact 1 already has"),
        details: { contactId: 1 },
      },
    });
  });

  it("logs an activity on a contact, which crm_read then counts", async () => {
    const { seam, context } = setUp();
    const logged = await seam.call(context(), "crm_write", {
      action: "log_activity",
      contactId: 4,
      subject: "Renewal call",
      body: "Agreed to send a quote by Friday.\nBudget approved.",
    });
    expect(logged).toEqual({
      ok: true,
      content: "Logged activity 1 on contact 4 (Jonas Berg): Renewal call.",
      data: { action: "log_activity", id: 1 },
    });
    const [jonas] = rowsOf(await seam.call(context(), "crm_read", { entity: "contacts", query: "jonas" }));
    expect(jonas?.activities).toBe(1);
  });

  it("refuses an activity on a contact the tenant does not have", async () => {
    const { seam, context } = setUp();
    await seam.call(context({ tenantId: "t2" }), "crm_write", {
      action: "create_contact",
      firstName: "Only",
      lastName: "Tenant-Two",
      email: "only@two.example",
    });
    const elsewhere = await seam.call(context(), "crm_write", {
      action: "log_activity",
      contactId: 11,
      subject: "Hello",
      body: "Reaching across tenants.",
    });
    expect(elsewhere).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("no contact 11") },
    });
  });

  it("refuses a call missing a field its action needs, naming each missing field", async () => {
    const { seam, context } = setUp();
    const contact = await seam.call(context(), "crm_write", { action: "create_contact", firstName: "Ada" });
    expect(contact).toMatchObject({ ok: false, error: { code: "invalid_input" } });
    const message = contact.ok ? "" : contact.error.message;
    expect(message).toMatch(/lastName: required for create_contact/);
    expect(message).toMatch(/email: required for create_contact/);

    // Fields of the other action do not stand in for the ones this action needs.
    const activity = await seam.call(context(), "crm_write", {
      action: "log_activity",
      firstName: "Ada",
      subject: "Hi",
      body: "Hello",
    });
    expect(activity).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message: expect.stringMatching(/contactId: required for log_activity/),
      },
    });
  });

  it("ignores the other action's fields when its own are all there", async () => {
    const { seam, context } = setUp();
    const created = await seam.call(context(), "crm_write", {
      action: "create_contact",
      firstName: "Alan",
      lastName: "Turing",
      email: "alan@bletchley.example",
      subject: "ignored",
    });
    expect(created).toMatchObject({ ok: true, data: { id: 11 } });
  });
});
