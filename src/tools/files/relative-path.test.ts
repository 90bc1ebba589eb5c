import { describe, expect, it } from "vitest";
import { namesDirectory, splitRelativePath } from "./relative-path.js";

function ruleOf(path: string): unknown {
  try {
    splitRelativePath(path);
    return "accepted";
  } catch (error) {
    return (error as { envelopeCode: string; details: { rule: string } }).details.rule;
  }
}

describe("splitRelativePath", () => {
  it("drops empty and '.' segments; the root is []", () => {
    expect(splitRelativePath("a/./b//c/")).toEqual(["a", "b", "c"]);
    expect(splitRelativePath(".")).toEqual([]);
    expect(splitRelativePath("")).toEqual([]);
    expect(splitRelativePath("..a/b..")).toEqual(["..a", "b.."]);
    expect(splitRelativePath("日本/é")).toEqual(["日本", "é"]);
  });

  it("refuses each rule by name, before touching the file system", () => {
    expect(ruleOf("/etc/passwd")).toBe("absolute-path");
    expect(ruleOf("\\\\server\\share")).toBe("absolute-path");
    expect(ruleOf("C:/Windows")).toBe("absolute-path");
    expect(ruleOf("..")).toBe("parent-segment");
    expect(ruleOf("a/../b")).toBe("parent-segment");
    expect(ruleOf("a/b/..")).toBe("parent-segment");
    expect(ruleOf("a\0b")).toBe("nul-byte");
    expect(ruleOf("/a\0/..")).toBe("nul-byte");
  });

  it("refuses with not_authorized and a message naming the rule", () => {
    expect(() => splitRelativePath("../x")).toThrow(/refused by rule parent-segment/);
    try {
      splitRelativePath("/x");
    } catch (error) {
      expect(error).toMatchObject({
        envelopeCode: "not_authorized",
        details: { rule: "absolute-path", path: "/x" },
      });
    }
  });

  it("knows when a path names a directory rather than a file", () => {
    for (const path of ["", ".", "a/", "a/.", "./"]) expect(namesDirectory(path)).toBe(true);
    for (const path of ["a", "a/b", ".a", "a/.b"]) expect(namesDirectory(path)).toBe(false);
  });
});
