/**
 * @module PostgreSQL pins of imported MCP tools. Pins belong to the deployment's catalogue, which every tenant
 * shares, so they are keyed by server and tool, not by tenant. Accepting is one compare-and-set UPDATE on the
 * offered hash: of people accepting at once on any instance, one is told it happened.
 */
import type pg from "pg";
import type { PinStore } from "../../ports/pin-store.js";
import { offerParams, PIN_COLUMNS, PIN_UPSERT, type PinRow, pinOf, pinParams } from "../sql/pin-rows.js";
import { jsonValue } from "../sql/rows.js";

const toPin = pinOf(jsonValue);

/** The pin store in the quoted `schema` (migrated). */
export function createPostgresPinStore(pool: pg.Pool, schema: string): PinStore {
  const table = `${schema}.mcp_pins`;
  return {
    async list(server) {
      const { rows } = await pool.query<PinRow>(
        `SELECT ${PIN_COLUMNS} FROM ${table} WHERE ($1::text IS NULL OR server = $1) ORDER BY server, tool`,
        [server ?? null],
      );
      return rows.map(toPin);
    },
    async put(pin) {
      await pool.query(
        `INSERT INTO ${table} (${PIN_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ${PIN_UPSERT}`,
        pinParams(pin),
      );
    },
    async offer(server, tool, offered) {
      await pool.query(
        `UPDATE ${table} SET offered_hash = $1, offered_definition = $2, offered_at = $3
         WHERE server = $4 AND tool = $5`,
        [...offerParams(offered), server, tool],
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
