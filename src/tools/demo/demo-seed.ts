/** @module The demo dataset: the same fictional companies, contacts and leads for every tenant, fixed ids. */
import type Database from "better-sqlite3";

type Company = [id: number, name: string, industry: string, city: string];
type Contact = [
  id: number,
  companyId: number | null,
  firstName: string,
  lastName: string,
  email: string,
  title: string | null,
];
type Lead = [
  id: number,
  companyId: number,
  contactId: number | null,
  title: string,
  stage: string,
  amountUsd: number,
];

const COMPANIES: readonly Company[] = [
  [1, "Northwind Trading", "Wholesale", "Seattle"],
  [2, "Bluefin Analytics", "Software", "Boston"],
  [3, "Harbor & Pine Dental", "Healthcare", "Portland"],
  [4, "Quarry Lane Builders", "Construction", "Denver"],
];

// Addresses use the reserved `.example` domain, so a demo can never mail a real person.
const CONTACTS: readonly Contact[] = [
  [1, 1, "Maya", "Okafor", "maya.okafor@northwind.example", "Head of Purchasing"],
  [2, 1, "Tomás", "Rivera", "tomas.rivera@northwind.example", "Operations Manager"],
  [3, 1, "Priya", "Natarajan", "priya.natarajan@northwind.example", "Finance Director"],
  [4, 2, "Jonas", "Berg", "jonas.berg@bluefin.example", "CTO"],
  [5, 2, "Aiko", "Tanaka", "aiko.tanaka@bluefin.example", "Product Lead"],
  [6, 2, "Samuel", "Greene", "samuel.greene@bluefin.example", "Procurement"],
  [7, 3, "Lena", "Fischer", "lena.fischer@harborpine.example", "Practice Manager"],
  [8, 3, "David", "Mensah", "david.mensah@harborpine.example", "Owner"],
  [9, 4, "Rosa", "Delgado", "rosa.delgado@quarrylane.example", "Project Director"],
  [10, null, "Ethan", "Brooks", "ethan.brooks@mail.example", null],
];

const LEADS: readonly Lead[] = [
  [1, 1, 1, "Warehouse scanner refresh", "qualified", 48_000],
  [2, 2, 4, "Analytics platform renewal", "proposal", 120_000],
  [3, 3, 8, "Patient reminder service", "new", 9_500],
  [4, 4, 9, "Site safety training", "negotiation", 22_000],
  [5, 2, 5, "Data team onboarding", "won", 15_000],
];

/**
 * Gives a tenant the demo dataset the first time it calls, inside the caller's transaction. Later calls find
 * the tenant recorded and change nothing, so what the tenant wrote since is never reset.
 */
export function seedTenant(db: Database.Database, tenantId: string): void {
  const claimed = db
    .prepare("INSERT INTO seeded_tenants (tenant_id) VALUES (?) ON CONFLICT DO NOTHING")
    .run(tenantId);
  if (claimed.changes === 0) return;
  const company = db.prepare(
    "INSERT INTO companies (tenant_id, id, name, industry, city) VALUES (?, ?, ?, ?, ?)",
  );
  for (const row of COMPANIES) company.run(tenantId, ...row);
  const contact = db.prepare(
    "INSERT INTO contacts (tenant_id, id, company_id, first_name, last_name, email, title) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const row of CONTACTS) contact.run(tenantId, ...row);
  const lead = db.prepare(
    "INSERT INTO leads (tenant_id, id, company_id, contact_id, title, stage, amount_usd) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  for (const row of LEADS) lead.run(tenantId, ...row);
}
