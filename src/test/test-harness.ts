/** @module A seam over memory stores and a fake clock, with a context factory: the quickest way to test tools. */

import type { Stores } from "../ports/stores.js";
import { type AnyTool, ToolRegistry } from "../registry/registry.js";
import { createExecutionContext, type ExecutionContext, type ExecutionContextInit } from "../seam/context.js";
import { Seam, type SeamOptions } from "../seam/seam.js";
import { createMemoryStores } from "../stores/memory/index.js";
import { createFakeClock, type FakeClock } from "./fake-clock.js";

export interface TestHarness {
  seam: Seam;
  registry: ToolRegistry;
  stores: Stores;
  clock: FakeClock;
  /** A context for tenant `t1`, principal `p1`, a fresh tool-call id each time unless given. */
  context(overrides?: Partial<ExecutionContextInit>): ExecutionContext;
}

export function createTestHarness(
  tools: readonly AnyTool[],
  options: Partial<Omit<SeamOptions, "registry">> = {},
): TestHarness {
  const registry = new ToolRegistry(tools);
  const stores = options.stores ?? createMemoryStores();
  const clock = createFakeClock();
  const seam = new Seam({ clock: clock.now, ...options, registry: registry.view(), stores });
  let calls = 0;
  return {
    seam,
    registry,
    stores,
    clock,
    context: (overrides = {}) =>
      createExecutionContext({
        tenantId: "t1",
        principalId: "p1",
        runId: "r1",
        toolCallId: `c${++calls}`,
        ...overrides,
      }),
  };
}
