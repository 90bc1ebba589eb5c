/**
 * @module A pin of an imported MCP tool as the SQL adapters (SQLite, PostgreSQL) keep it: one column list,
 * one row reading and one order of values, the backends differing only in how a JSON column comes back.
 */
import type { PinnedDefinition, ToolPin } from "../../ports/pin-store.js";
import type { JsonColumn } from "./rows.js";

export interface PinRow {
  server: string;
  tool: string;
  hash: string;
  definition: unknown;
  accepted_at: number;
  accepted_by: string;
  offered_hash: string | null;
  offered_definition: unknown;
  offered_at: number | null;
}

export const PIN_COLUMNS =
  "server, tool, hash, definition, accepted_at, accepted_by, offered_hash, offered_definition, offered_at";

/** Putting a pin replaces the one held for the same server and tool, whole. */
export const PIN_UPSERT = `ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash,
  definition = excluded.definition, accepted_at = excluded.accepted_at, accepted_by = excluded.accepted_by,
  offered_hash = excluded.offered_hash, offered_definition = excluded.offered_definition,
  offered_at = excluded.offered_at`;

export const pinOf =
  (json: JsonColumn) =>
  (row: PinRow): ToolPin => {
    const offered = json(row.offered_definition) as PinnedDefinition | undefined;
    return {
      server: row.server,
      tool: row.tool,
      hash: row.hash,
      definition: json(row.definition) as PinnedDefinition,
      acceptedAt: row.accepted_at,
      acceptedBy: row.accepted_by,
      ...(row.offered_hash !== null && offered !== undefined && row.offered_at !== null
        ? { offered: { hash: row.offered_hash, definition: offered, seenAt: row.offered_at } }
        : {}),
    };
  };

/** The three offered_* column values: what was offered, or NULLs for nothing on offer. */
export const offerParams = (offered: ToolPin["offered"]) => [
  offered?.hash ?? null,
  offered ? JSON.stringify(offered.definition) : null,
  offered?.seenAt ?? null,
];

/** A pin's nine column values, in PIN_COLUMNS order. */
export const pinParams = (pin: ToolPin) => [
  pin.server,
  pin.tool,
  pin.hash,
  JSON.stringify(pin.definition),
  pin.acceptedAt,
  pin.acceptedBy,
  ...offerParams(pin.offered),
];
