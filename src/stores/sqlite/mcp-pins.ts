/** @module SQLite pins of imported MCP tools, in the shared state file so `toolreg mcp accept` reaches them. */
import type Database from "better-sqlite3";
import type { PinnedDefinition, PinStore, ToolPin } from "../../ports/pin-store.js";

interface Row {
  server: string;
  tool: string;
  hash: string;
  definition: string;
  accepted_at: number;
  accepted_by: string;
  offered_hash: string | null;
  offered_definition: string | null;
  offered_at: number | null;
}

const toPin = (row: Row): ToolPin => ({
  server: row.server,
  tool: row.tool,
  hash: row.hash,
  definition: JSON.parse(row.definition) as PinnedDefinition,
  acceptedAt: row.accepted_at,
  acceptedBy: row.accepted_by,
  ...(row.offered_hash !== null && row.offered_definition !== null && row.offered_at !== null
    ? {
        offered: {
          hash: row.offered_hash,
          definition: JSON.parse(row.offered_definition) as PinnedDefinition,
          seenAt: row.offered_at,
        },
      }
    : {}),
});

export function createSqlitePinStore(db: Database.Database): PinStore {
  const list = db.prepare<[string], Row>("SELECT * FROM mcp_pins WHERE server = ? ORDER BY tool");
  const listAll = db.prepare<[], Row>("SELECT * FROM mcp_pins ORDER BY server, tool");
  const put = db.prepare<
    [string, string, string, string, number, string, string | null, string | null, number | null]
  >(
    `INSERT INTO mcp_pins (server, tool, hash, definition, accepted_at, accepted_by, offered_hash, offered_definition, offered_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (server, tool) DO UPDATE SET hash = excluded.hash, definition = excluded.definition,
       accepted_at = excluded.accepted_at, accepted_by = excluded.accepted_by, offered_hash = excluded.offered_hash,
       offered_definition = excluded.offered_definition, offered_at = excluded.offered_at`,
  );
  const offer = db.prepare<[string | null, string | null, number | null, string, string]>(
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
      put.run(
        pin.server,
        pin.tool,
        pin.hash,
        JSON.stringify(pin.definition),
        pin.acceptedAt,
        pin.acceptedBy,
        pin.offered?.hash ?? null,
        pin.offered ? JSON.stringify(pin.offered.definition) : null,
        pin.offered?.seenAt ?? null,
      );
    },
    async offer(server, tool, offered) {
      offer.run(
        offered?.hash ?? null,
        offered ? JSON.stringify(offered.definition) : null,
        offered?.seenAt ?? null,
        server,
        tool,
      );
    },
    async accept({ server, tool, hash, by, at }) {
      return accept.run(at, by, server, tool, hash).changes === 1;
    },
  };
}
