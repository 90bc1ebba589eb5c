/** @module The PostgreSQL pin store against the conformance suite, and acceptance raced by two instances. */
import { describe, expect, it } from "vitest";
import { scratchSchema, withScratchSchema } from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import { runPinStoreConformance } from "../../ports/pin-store.conformance.js";

const reachable = await postgresAvailable("pin store");

describe.runIf(reachable)("postgres pin store", () => {
  runPinStoreConformance("postgres", async () => {
    const scratch = await scratchSchema();
    return {
      store: scratch.stores.pins,
      reopen: async () => (await scratch.reopen()).pins,
      cleanup: scratch.cleanup,
    };
  });

  it("tells one of many people accepting one offer through two instances that it happened", () =>
    withScratchSchema(async (scratch) => {
      const [first, second] = [scratch.stores.pins, (await scratch.another()).pins];
      await first.put({
        server: "s",
        tool: "t",
        hash: "h-old",
        definition: { description: "old", inputSchema: {} },
        acceptedAt: 1,
        acceptedBy: "first import",
        offered: { hash: "h-new", definition: { description: "new", inputSchema: {} }, seenAt: 2 },
      });
      const accepted = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 === 0 ? first : second).accept({
            server: "s",
            tool: "t",
            hash: "h-new",
            by: `op-${index}`,
            at: 3,
          }),
        ),
      );
      expect(accepted.filter(Boolean)).toEqual([true]);
      const [pin] = await second.list("s");
      expect(pin).toMatchObject({ hash: "h-new", acceptedBy: `op-${accepted.indexOf(true)}` });
      expect(pin?.offered).toBeUndefined();
    }));
});

// postgresAvailable has already thrown under CI=true; elsewhere the skip is named in the report.
if (!reachable) it.skip("postgres pin store (skipped: PostgreSQL unreachable, CI is not true)", () => {});
