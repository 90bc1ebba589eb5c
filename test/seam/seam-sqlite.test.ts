import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declaration/define-tool.js";
import type { Authorizer } from "../../src/policy/ports.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { createExecutionContext, type ExecutionContextInit } from "../../src/seam/context.js";
import type { Envelope } from "../../src/seam/envelope.js";
import { Seam } from "../../src/seam/seam.js";
import { openSqliteStores, type SqliteStores } from "../../src/stores/sqlite/index.js";

let directory: string;
const opened: SqliteStores[] = [];
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "toolreg-seam-sqlite-"));
});
afterEach(() => {
  for (const stores of opened.splice(0)) stores.close();
  rmSync(directory, { recursive: true, force: true });
});

function open(): SqliteStores {
  const stores = openSqliteStores(join(directory, "state.db"));
  opened.push(stores);
  return stores;
}

/** An external-write tool whose body counts its runs and takes a while, so concurrent calls overlap. */
function chargeTool(runs: { count: number }, approval: "policy" | undefined = "policy") {
  return defineTool({
    name: "billing_charge",
    description: "Charges a card.",
    category: "finance",
    effect: "external-write",
    ...(approval ? { approval, overrideReason: "the host's policy pre-approves charges in this test" } : {}),
    input: z.object({ cents: z.number().int().positive() }),
    async run({ cents }, context) {
      runs.count++;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return { content: `charged ${cents}`, data: { cents, key: context.idempotencyKey, run: runs.count } };
    },
  });
}

const allow = { decide: () => ({ decision: "allow" as const, reason: "pre-approved" }) };
const context = (init: Partial<ExecutionContextInit> = {}) =>
  createExecutionContext({
    tenantId: "acme",
    principalId: "agent",
    runId: "run-1",
    toolCallId: "call-1",
    ...init,
  });

describe("the seam on the SQLite store", () => {
  it("runs the body of 200 concurrent same-key calls once, across two connections, and all get its result", async () => {
    const runs = { count: 0 };
    const tool = chargeTool(runs);
    const seams = [open(), open()].map(
      (stores) =>
        new Seam({ registry: new ToolRegistry([tool]).view(), stores, approvalPolicy: allow, waitPollMs: 5 }),
    );
    const results = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        (seams[i % 2] as Seam).call(
          context({ idempotencyKey: "order-1001" }),
          "billing_charge",
          { cents: 500 },
          {
            onInProgress: "wait",
          },
        ),
      ),
    );
    expect(runs.count).toBe(1);
    const first = results[0] as Envelope;
    expect(first).toEqual({
      ok: true,
      content: "charged 500",
      data: { cents: 500, key: "order-1001", run: 1 },
    });
    expect(results.every((result) => JSON.stringify(result) === JSON.stringify(first))).toBe(true);

    const other = await (seams[0] as Seam).call(context({ idempotencyKey: "order-1001" }), "billing_charge", {
      cents: 900,
    });
    expect(other).toMatchObject({ ok: false, error: { code: "idempotency_conflict" } });
    expect(runs.count).toBe(1);
  });

  it("runs an approved call once when it is resumed twice concurrently", async () => {
    const runs = { count: 0 };
    const tool = chargeTool(runs, undefined);
    const seams = [open(), open()].map(
      (stores) => new Seam({ registry: new ToolRegistry([tool]).view(), stores, waitPollMs: 5 }),
    );
    const parked = await (seams[0] as Seam).call(context(), "billing_charge", { cents: 700 });
    if (parked.ok || parked.error.code !== "approval_required") throw new Error(JSON.stringify(parked));
    const approvalId = parked.error.details?.approvalId as string;
    expect(
      await (seams[1] as Seam).approve({ tenantId: "acme", approvalId, by: "finance-lead" }),
    ).toMatchObject({ ok: true });
    const [a, b] = await Promise.all(
      seams.map((seam) => seam.resume(context(), approvalId, { onInProgress: "wait" })),
    );
    expect(runs.count).toBe(1);
    expect(a).toMatchObject({ ok: true, content: "charged 700" });
    expect(b).toEqual(a);
  });

  it("runs a call zero times when the grant was revoked before approval", async () => {
    const runs = { count: 0 };
    const granted = new Set(["agent"]);
    const authorizer: Authorizer = { authorize: (caller) => granted.has(caller.principalId) };
    const seam = new Seam({
      registry: new ToolRegistry([chargeTool(runs, undefined)]).view(),
      stores: open(),
      authorizer,
    });
    const parked = await seam.call(context(), "billing_charge", { cents: 300 });
    const approvalId = (parked.ok ? undefined : parked.error.details?.approvalId) as string;
    granted.delete("agent");
    await seam.approve({ tenantId: "acme", approvalId, by: "finance-lead" });
    expect(await seam.resume(context(), approvalId)).toMatchObject({
      ok: false,
      error: { code: "not_authorized" },
    });
    expect(runs.count).toBe(0);
  });
});
