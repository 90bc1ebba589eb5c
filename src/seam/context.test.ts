import { describe, expect, it } from "vitest";
import { createExecutionContext, type ExecutionContextInit } from "./context.js";

const valid: ExecutionContextInit = {
  tenantId: "acme",
  principalId: "user:ada@example.com",
  runId: "run-1",
  toolCallId: "call_1",
};

describe("createExecutionContext", () => {
  it("builds a frozen context with the defaults filled in", () => {
    const context = createExecutionContext(valid);
    expect(Object.isFrozen(context)).toBe(true);
    expect(context).toMatchObject({ ...valid, mode: "active", scopes: [], deadline: undefined });
    expect(() => {
      (context as { tenantId: string }).tenantId = "other";
    }).toThrow(TypeError);
  });

  it.each(["tenantId", "principalId", "runId", "toolCallId"] as const)(
    "refuses a %s that is not an identifier, also after a valid one was seen",
    (field) => {
      createExecutionContext(valid);
      for (const bad of ["", " acme", "-acme", "a b", "a\u0000b", "x".repeat(201), 42 as unknown as string]) {
        expect(() => createExecutionContext({ ...valid, [field]: bad })).toThrow(
          `execution context: ${field} is not a valid identifier`,
        );
      }
    },
  );

  it("still checks every id after many different ones have come and gone", () => {
    for (let n = 0; n < 10_000; n++) {
      createExecutionContext({ ...valid, tenantId: `tenant-${n}`, runId: `run-${n}` });
    }
    expect(() => createExecutionContext({ ...valid, tenantId: "tenant 1" })).toThrow(/tenantId/);
    expect(createExecutionContext({ ...valid, tenantId: "tenant-9999" }).tenantId).toBe("tenant-9999");
  });
});
