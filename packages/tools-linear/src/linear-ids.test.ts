import { describe, expect, it } from "vitest";
import { derivedId } from "./linear-ids.js";

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("derivedId", () => {
  it("is a UUID in v4 layout, the same for the same key and purpose", () => {
    const id = derivedId("issue", "t1:r1:c1:0");
    expect(id).toMatch(V4);
    expect(derivedId("issue", "t1:r1:c1:0")).toBe(id);
  });

  it("differs by key and by purpose, so a comment never takes an issue's id", () => {
    const issue = derivedId("issue", "k");
    expect(derivedId("issue", "k2")).not.toBe(issue);
    expect(derivedId("comment", "k")).not.toBe(issue);
    expect(derivedId("comment", "k")).toMatch(V4);
  });

  it("refuses to run without a key rather than send a write Linear could not deduplicate", () => {
    expect(() => derivedId("issue", undefined)).toThrow(/idempotency key/);
  });
});
