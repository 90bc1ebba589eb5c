/** @module `crm_read`: the tenant's demo contacts, companies or leads, filtered by a text and bounded. */
import { z } from "zod";
import { demoTool } from "./demo-env.js";
import { DEMO_READ_LIMITS, lineField } from "./demo-fields.js";
import { type Row, renderRows } from "./row-table.js";
import { inTenantTransaction } from "./tenant-transaction.js";

const ENTITIES = ["contacts", "companies", "leads"] as const;
type Entity = (typeof ENTITIES)[number];

const CRM_READ_MAX_ROWS = 100;

/**
 * One fixed statement per entity; the filter and the bound arrive as parameters. `:pattern` is NULL when no
 * query is given, and each statement reads one row past `:limit` so the result can say there are more.
 */
const STATEMENTS: Record<Entity, { columns: readonly string[]; sql: string }> = {
  contacts: {
    columns: ["id", "firstName", "lastName", "email", "title", "company", "activities"],
    sql: `SELECT c.id, c.first_name AS firstName, c.last_name AS lastName, c.email, c.title,
        co.name AS company,
        (SELECT count(*) FROM activities a WHERE a.tenant_id = c.tenant_id AND a.contact_id = c.id) AS activities
      FROM contacts c
      LEFT JOIN companies co ON co.tenant_id = c.tenant_id AND co.id = c.company_id
      WHERE c.tenant_id = :tenant AND (:pattern IS NULL
        OR c.first_name || ' ' || c.last_name LIKE :pattern ESCAPE '\\'
        OR c.email LIKE :pattern ESCAPE '\\' OR c.title LIKE :pattern ESCAPE '\\'
        OR co.name LIKE :pattern ESCAPE '\\')
      ORDER BY c.id LIMIT :limit + 1`,
  },
  companies: {
    columns: ["id", "name", "industry", "city", "contacts"],
    sql: `SELECT co.id, co.name, co.industry, co.city,
        (SELECT count(*) FROM contacts c WHERE c.tenant_id = co.tenant_id AND c.company_id = co.id) AS contacts
      FROM companies co
      WHERE co.tenant_id = :tenant AND (:pattern IS NULL
        OR co.name LIKE :pattern ESCAPE '\\' OR co.industry LIKE :pattern ESCAPE '\\'
        OR co.city LIKE :pattern ESCAPE '\\')
      ORDER BY co.id LIMIT :limit + 1`,
  },
  leads: {
    columns: ["id", "title", "stage", "amountUsd", "company", "contact"],
    sql: `SELECT l.id, l.title, l.stage, l.amount_usd AS amountUsd, co.name AS company,
        c.first_name || ' ' || c.last_name AS contact
      FROM leads l
      JOIN companies co ON co.tenant_id = l.tenant_id AND co.id = l.company_id
      LEFT JOIN contacts c ON c.tenant_id = l.tenant_id AND c.id = l.contact_id
      WHERE l.tenant_id = :tenant AND (:pattern IS NULL
        OR l.title LIKE :pattern ESCAPE '\\' OR l.stage LIKE :pattern ESCAPE '\\'
        OR co.name LIKE :pattern ESCAPE '\\')
      ORDER BY l.id LIMIT :limit + 1`,
  },
};

/** A LIKE pattern that matches `query` literally anywhere: its `%`, `_` and `\` lose their meaning. */
function containsPattern(query: string): string {
  return `%${query.replace(/[\\%_]/g, "\\$&")}%`;
}

export const crmReadSpec = demoTool({
  name: "crm_read",
  description:
    "Looks up records in the demo CRM: contacts (people, with their company and how many activities are logged), companies, or leads (sales opportunities with stage and amount). " +
    "Pick it to find a contact's id before crm_write logs an activity, or to answer questions about accounts and the pipeline. " +
    `Returns up to ${CRM_READ_MAX_ROWS} rows as data and a text table, and says when more rows match. Changes nothing.`,
  category: "crm",
  effect: "read",
  cost: "io",
  input: z.object({
    entity: z.enum(ENTITIES).describe("which records to read: contacts, companies or leads"),
    query: lineField(
      200,
      "optional text to match anywhere in names, emails, titles, companies or stages (case-insensitive); omit to list all",
    ).optional(),
    limit: z
      .number()
      .int()
      .min(1)
      .max(CRM_READ_MAX_ROWS)
      .default(20)
      .describe(`how many rows at most, 1 to ${CRM_READ_MAX_ROWS}; default 20`),
  }),
  limits: DEMO_READ_LIMITS,
  run({ entity, query, limit }, context, { path }) {
    const { columns, sql } = STATEMENTS[entity];
    const found = inTenantTransaction(path, context.tenantId, (db) =>
      db.prepare(sql).all({
        tenant: context.tenantId,
        pattern: query === undefined ? null : containsPattern(query),
        limit,
      }),
    ) as Row[];
    const more = found.length > limit;
    const rows = found.slice(0, limit);
    const matching = query === undefined ? "" : ` matching "${query}"`;
    const summary =
      rows.length === 0
        ? `No ${entity}${matching}.`
        : `${rows.length} of the ${entity}${matching}${more ? " (more match: raise limit or narrow the query)" : ""}:`;
    return {
      content: rows.length === 0 ? summary : `${summary}\n${renderRows(columns, rows)}`,
      data: { entity, rows, more },
    };
  },
});
