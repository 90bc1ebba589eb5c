/**
 * @module PostgreSQL pins of imported MCP tools. Pins belong to the deployment's catalogue, which every tenant
 * shares, so they are keyed by server and tool, not by tenant. Accepting is one compare-and-set UPDATE on the
 * offered hash: of people accepting at once on any instance, one is told it happened.
 */
import type pg from "pg";
import type { PinnedDefinition, PinStore, ToolPin } from "../../ports/pin-store.js";

interface Row {
  server: string;
  tool: string;
  hash: string;
  definition: PinnedDefinition;
  accepted_at: number;
  accepted_by: string;
  offered_hash: string | null;
  offered_definition: PinnedDefinition | null;
  offered_at: number | null;
}

const COLUMNS =
  "server, tool, hash, definition, accepted_at, accepted_by, offered_hash, offered_definition, offered_at";

const toPin = (row: Row): ToolPin => ({
  server: row.server,
  tool: row.tool,
  hash: row.hash,
  definition: row.definition,
  acceptedAt: row.accepted_at,
  acceptedBy: row.accepted_by,
  ...(row.offered_hash !== null && row.offered_definition !== null && row.offered_at !== null
    ? { offered: { hash: row.offered_hash, definition: row.offered_definition, seenAt: row.offered_at } }
    : {}),
});

/** The pin store in the quoted `schema` (migrated). */
export function createPostgresPinStore(pool: pg.Pool, schema: string): PinStore {
  const table = `${schema}.mcp_pins`;
  return {
    async list(server) {
      const { rows } = await pool.query<Row>(
        `SELECT ${COLUMNS} FROM ${table} WHERE ($1::text IS NULL OR server = $1) ORDER BY server, tool`,
        [server ?? null],
      );
      return rows.map(toPin);
    },
    async put(pin) {
      await pool.query(
        `INSERT INTO ${table} (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
         ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, definition = excluded.definition,
           accepted_at = excluded.accepted_at, accepted_by = excluded.accepted_by,
           offered_hash = excluded.offered_hash, offered_definition = excluded.offered_definition,
           offered_at = excluded.offered_at`,
        [
          pin.server,
          pin.tool,
          pin.hash,
          JSON.stringify(pin.definition),
          pin.acceptedAt,
          pin.acceptedBy,
          pin.offered?.hash ?? null,
          pin.offered ? JSON.stringify(pin.offered.definition) : null,
          pin.offered?.seenAt ?? null,
        ],
      );
    },
    async offer(server, tool, offered) {
      await pool.query(
        `UPDATE ${table} SET offered_hash = $1, offered_definition = $2, offered_at = $3
         WHERE server = $4 AND tool = $5`,
        [
          offered?.hash ?? null,
          offered ? JSON.stringify(offered.definition) : null,
          offered?.seenAt ?? null,
          server,
          tool,
        ],
      );
    },
    async accept({ server, tool, hash, by, at }) {
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET hash = offered_hash, definition = offered_definition, accepted_at = $1,
           accepted_by = $2, offered_hash = NULL, offered_definition = NULL, offered_at = NULL
         WHERE server = $3 AND tool = $4 AND offered_hash = $5`,
        [at, by, server, tool, hash],
      );
      return rowCount === 1;
    },
  };
}
