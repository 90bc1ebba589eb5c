import { describe, expect, it } from "vitest";
import { egressAllowing } from "./egress-allow.js";

describe("egressAllowing", () => {
  it("adds address classes and CIDRs to the public default, and refuses anything else in the caller's words", () => {
    expect(egressAllowing(["loopback", "10.0.0.0/8"], () => new Error("unused"))).toEqual({
      allowAddressClasses: ["public", "loopback"],
      allowCidrs: ["10.0.0.0/8"],
    });
    expect(egressAllowing([], () => new Error("unused"))).toEqual({
      allowAddressClasses: ["public"],
      allowCidrs: [],
    });
    expect(() => egressAllowing(["intranet"], (entry) => new Error(`no ${entry}`))).toThrow("no intranet");
  });
});
