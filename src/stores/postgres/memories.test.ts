/** @module The PostgreSQL memory store against the conformance suite, on a schema of its own per test. */
import { it } from "vitest";
import { scratchSchema } from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import { CONFORMANCE_MAX_MEMORIES, runMemoryStoreConformance } from "../../ports/memory-store.conformance.js";
import { createPostgresMemoryStore } from "./memories.js";

const reachable = await postgresAvailable("memory store");

if (reachable) {
  runMemoryStoreConformance("postgres", async () => {
    const scratch = await scratchSchema();
    const open = () =>
      createPostgresMemoryStore(scratch.stores.pool, scratch.stores.schema, {
        maxMemories: CONFORMANCE_MAX_MEMORIES,
      });
    return {
      store: open(),
      reopen: async () => {
        await scratch.reopen();
        return open();
      },
      cleanup: () => scratch.cleanup(),
    };
  });
}

// postgresAvailable has already thrown under CI=true; elsewhere the skip is named in the report.
if (!reachable)
  it.skip("postgres memory store (skipped: PostgreSQL unreachable at 127.0.0.1:5432, CI is not true)", () => {});
