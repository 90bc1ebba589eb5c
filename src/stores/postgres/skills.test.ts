/** @module The PostgreSQL skill store against the skill store conformance suite, with writers on two pools. */
import { describe, it } from "vitest";
import { runSkillStoreConformance } from "../../../test/conformance/skill-store.js";
import { scratchSchema } from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import type { PostgresStores } from "./index.js";
import { createPostgresSkillStore } from "./skills.js";

const reachable = await postgresAvailable("skill store");
const skillsOn = (stores: PostgresStores) => createPostgresSkillStore(stores.pool, stores.schema);

describe.runIf(reachable)("postgres skill store", () => {
  runSkillStoreConformance("postgres", async () => {
    const scratch = await scratchSchema();
    return {
      store: skillsOn(scratch.stores),
      reopen: async () => skillsOn(await scratch.reopen()),
      another: async () => skillsOn(await scratch.another()),
      cleanup: scratch.cleanup,
    };
  });
});

// postgresAvailable has already thrown under CI=true; elsewhere the skip is named in the report.
if (!reachable) it.skip("postgres skill store (skipped: PostgreSQL unreachable, CI is not true)", () => {});
