/** @module The credential a tool carries: its scope implications closed through, whatever a vendor's table holds. */
import { describe, expect, it } from "vitest";
import { closeImplications, credentialNeedOf, withCredentialNeed } from "./credential-need.js";

describe("closeImplications", () => {
  it("follows implications through: admin:org holds write:org and, through it, read:org", () => {
    const closed = closeImplications({ "admin:org": ["write:org"], "write:org": ["read:org"], project: [] });
    expect(closed["admin:org"]).toEqual(["write:org", "read:org"]);
    expect(closed["write:org"]).toEqual(["read:org"]);
    expect(closed.project).toEqual([]);
    expect(closed["read:org"]).toBeUndefined();
  });

  it("ends on a table with a cycle, and lists no scope as holding itself", () => {
    const closed = closeImplications({ a: ["b"], b: ["c"], c: ["a"] });
    expect([...(closed.a ?? [])].sort()).toEqual(["b", "c"]);
    expect([...(closed.c ?? [])].sort()).toEqual(["a", "b"]);
  });

  it("answers a scope named like an object's own property with nothing", () => {
    const closed = closeImplications({ repo: ["public_repo"] });
    for (const scope of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      expect(closed[scope]).toBeUndefined();
    }
  });
});

describe("withCredentialNeed", () => {
  it("carries the need, frozen, with its implications closed", () => {
    const tool = withCredentialNeed(
      { name: "vendor_read" },
      {
        provider: "vendor",
        credentialRef: "vendor",
        auth: "oauth",
        oauth: undefined,
        scopes: ["read:project"],
        impliedScopes: { admin: ["project"], project: ["read:project"] },
      },
    );
    const need = credentialNeedOf(tool);
    expect(need?.impliedScopes.admin).toEqual(["project", "read:project"]);
    expect(Object.isFrozen(need)).toBe(true);
    expect(Object.isFrozen(need?.impliedScopes)).toBe(true);
    expect(JSON.stringify(tool)).toBe('{"name":"vendor_read"}');
  });
});
