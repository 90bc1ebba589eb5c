import { describe, expect, it } from "vitest";
import { parseRuntimeVersion, runsOnRuntime } from "./runtime.js";

describe("parseRuntimeVersion", () => {
  it("normalizes a semver version and refuses anything else", () => {
    expect(parseRuntimeVersion("2.3.0")).toBe("2.3.0");
    expect(parseRuntimeVersion("v2.3.0")).toBe("2.3.0");
    expect(parseRuntimeVersion("3.0.0-rc.1")).toBe("3.0.0-rc.1");
    for (const refused of ["", "2.3", "newest", ">=2.0.0", `1.0.0-${"a".repeat(64)}`]) {
      expect(parseRuntimeVersion(refused), refused).toBeNull();
    }
  });
});

describe("runsOnRuntime", () => {
  it("checks the tool's range, counts a prerelease host, and lets a tool without a range run anywhere", () => {
    expect(runsOnRuntime({ runtime: ">=2.0.0 <3.0.0" }, "2.3.0")).toBe(true);
    expect(runsOnRuntime({ runtime: ">=2.0.0 <3.0.0" }, "3.0.0")).toBe(false);
    expect(runsOnRuntime({ runtime: "^3.1.0" }, "3.2.0-beta.1")).toBe(true);
    expect(runsOnRuntime({ runtime: undefined }, "0.1.0")).toBe(true);
    expect(runsOnRuntime({}, "9.9.9")).toBe(true);
  });
});
