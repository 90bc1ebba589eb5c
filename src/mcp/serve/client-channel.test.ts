import { describe, expect, it } from "vitest";
import { type McpClientChannel, mcpClientOf, openMcpClient } from "./client-channel.js";

const channel = (name: string): McpClientChannel => ({
  capabilities: { experimental: { name: {} } },
  progress: async () => {},
  log: async () => {},
  createMessage: async () => {
    throw new Error(name);
  },
  elicitInput: async () => {
    throw new Error(name);
  },
  listRoots: async () => {
    throw new Error(name);
  },
});

const call = { tenantId: "t1", principalId: "p1", runId: "r1", toolCallId: "call-1" };

describe("the MCP client channel of a call", () => {
  it("is found by the whole identity of its call, made once, and gone once released", () => {
    let made = 0;
    const release = openMcpClient(call, () => {
      made++;
      return channel("first");
    });
    for (const other of [
      { ...call, tenantId: "t2" },
      { ...call, principalId: "p2" },
      { ...call, runId: "r2" },
      { ...call, toolCallId: "call-2" },
    ]) {
      expect(mcpClientOf(other)).toBeUndefined();
    }
    expect(made).toBe(0);
    const found = mcpClientOf({ ...call });
    expect(found).toBeDefined();
    expect(mcpClientOf(call)).toBe(found);
    expect(made).toBe(1);
    release();
    expect(mcpClientOf(call)).toBeUndefined();
  });

  it("is neither taken nor ended by another call, even one that reuses the tool-call id", () => {
    const release = openMcpClient(call, () => channel("first"));
    const first = mcpClientOf(call);
    expect(first).toBeDefined();
    // Two calls in flight under one identity: neither can tell which client is its own, so neither gets one.
    const duplicate = openMcpClient({ ...call }, () => channel("duplicate"));
    expect(mcpClientOf(call)).toBeUndefined();
    duplicate();
    expect(mcpClientOf(call)).toBe(first);
    const other = { ...call, tenantId: "t2" };
    const releaseOther = openMcpClient(other, () => channel("other"));
    const otherChannel = mcpClientOf(other);
    expect(otherChannel).toBeDefined();
    expect(otherChannel).not.toBe(first);
    releaseOther();
    releaseOther();
    expect(mcpClientOf(other)).toBeUndefined();
    expect(mcpClientOf(call)).toBe(first);
    release();
    expect(mcpClientOf(call)).toBeUndefined();
  });

  it("keeps every channel of many calls in flight while they end in any order", () => {
    const calls = Array.from({ length: 50 }, (_, i) => ({ ...call, toolCallId: `call-${i}` }));
    const releases = calls.map((each) => openMcpClient(each, () => channel(each.toolCallId)));
    const order = calls.map((_, i) => (i * 17) % calls.length);
    order.forEach((ended, step) => {
      releases[ended]!();
      for (const [i, each] of calls.entries()) {
        const endedYet = order.slice(0, step + 1).includes(i);
        expect(mcpClientOf(each) === undefined).toBe(endedYet);
      }
    });
  });
});
