/** @module The PostgreSQL knowledge base against the conformance suite, in a scratch schema. */
import { it } from "vitest";
import { scratchSchema } from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import { runKnowledgeBaseConformance } from "../../ports/knowledge-base.conformance.js";
import { createPostgresKnowledgeBase } from "./knowledge.js";

const reachable = await postgresAvailable("knowledge base");

if (reachable) {
  runKnowledgeBaseConformance("postgres", async () => {
    const scratch = await scratchSchema();
    const open = () => createPostgresKnowledgeBase(scratch.stores.pool, scratch.stores.schema);
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
  it.skip("postgres knowledge base (skipped: PostgreSQL unreachable at 127.0.0.1:5432, CI is not true)", () => {});
