/** @module SQLite pins of imported MCP tools, in the shared state file so `toolreg mcp accept` reaches them. */
import type Database from "better-sqlite3";
import type { PinStore } from "../../ports/pin-store.js";
import { offerParams, PIN_COLUMNS, PIN_UPSERT, type PinRow, pinOf, pinParams } from "../sql/pin-rows.js";
import { jsonText } from "../sql/rows.js";

const toPin = pinOf(jsonText);

export function createSqlitePinStore(db: Database.Database): PinStore {
  const list = db.prepare<[string], PinRow>("SELECT * FROM mcp_pins WHERE server = ? ORDER BY tool");
  const listAll = db.prepare<[], PinRow>("SELECT * FROM mcp_pins ORDER BY server, tool");
  const put = db.prepare<ReturnType<typeof pinParams>>(
    `INSERT INTO mcp_pins (${PIN_COLUMNS})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ${PIN_UPSERT}`,
  );
  const offer = db.prepare<[...ReturnType<typeof offerParams>, string, string]>(
    "UPDATE mcp_pins SET offered_hash = ?, offered_definition = ?, offered_at = ? WHERE server = ? AND tool = ?",
  );
  // One statement: two people accepting at once both see the offered definition become the pin.
  const accept = db.prepare<[number, string, string, string, string]>(
    `UPDATE mcp_pins SET hash = offered_hash, definition = offered_definition, accepted_at = ?, accepted_by = ?,
       offered_hash = NULL, offered_definition = NULL, offered_at = NULL
     WHERE server = ? AND tool = ? AND offered_hash = ?`,
  );
  return {
    async list(server) {
      return (server === undefined ? listAll.all() : list.all(server)).map(toPin);
    },
    async put(pin) {
      put.run(...pinParams(pin));
    },
    async offer(server, tool, offered) {
      offer.run(...offerParams(offered), server, tool);
    },
    async accept({ server, tool, hash, by, at }) {
      return accept.run(at, by, server, tool, hash).changes === 1;
    },
  };
}
