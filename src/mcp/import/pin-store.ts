/** @module The in-memory pin store: the reference adapter of the pin port, and the importer's default. */
import type { PinStore, ToolPin } from "../../ports/pin-store.js";

/** The reference adapter. */
export function createMemoryPinStore(): PinStore {
  const pins = new Map<string, ToolPin>();
  const id = (server: string, tool: string) => JSON.stringify([server, tool]);
  return {
    async list(server) {
      return (
        [...pins.values()]
          .filter((pin) => server === undefined || pin.server === server)
          // Code-unit order, as SQLite's default collation sorts.
          .sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool))
          .map((pin) => structuredClone(pin))
      );
    },
    async put(pin) {
      pins.set(id(pin.server, pin.tool), structuredClone(pin));
    },
    async offer(server, tool, offered) {
      const pin = pins.get(id(server, tool));
      if (!pin) return;
      if (offered) pin.offered = structuredClone(offered);
      else delete pin.offered;
    },
    async accept({ server, tool, hash, by, at }) {
      const pin = pins.get(id(server, tool));
      if (!pin?.offered || pin.offered.hash !== hash) return false;
      pins.set(id(server, tool), {
        server,
        tool,
        hash: pin.offered.hash,
        definition: pin.offered.definition,
        acceptedAt: at,
        acceptedBy: by,
      });
      return true;
    },
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
