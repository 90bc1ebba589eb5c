import { describe, expect, it } from "vitest";
import {
  directoryPathField,
  filePathField,
  newBranchField,
  refNameField,
  urlSegments,
} from "./git-inputs.js";

const ref = refNameField("a ref");

describe("filePathField", () => {
  it.each(["README.md", "src/a b/c.ts", ".github/workflows/ci.yml", "a..b/c", "ünïcode/名前.txt"])(
    "takes %j",
    (path) => {
      expect(filePathField.safeParse(path).success).toBe(true);
    },
  );

  it.each([
    "",
    "/etc/passwd",
    "src/",
    "src//a",
    "./a",
    "a/../../b",
    "..",
    "a\tb",
    "a\u007fb",
    "x".repeat(4097),
  ])("refuses %j", (path) => {
    expect(filePathField.safeParse(path).success).toBe(false);
  });

  it("lets a directory be the root, as an empty or omitted path", () => {
    expect(directoryPathField.safeParse("").success).toBe(true);
    expect(directoryPathField.safeParse(undefined).success).toBe(true);
    expect(directoryPathField.safeParse("/").success).toBe(false);
  });
});

describe("refNameField", () => {
  it.each(["main", "feature/login", "v1.2.3", "release-2024_01", "6dcb09b5b57875f334f61aebed695e2e4193db5e"])(
    "takes %j",
    (name) => {
      expect(ref.safeParse(name).success).toBe(true);
    },
  );

  it.each([
    "",
    "a b",
    "a..b",
    "a~1",
    "a^",
    "a:b",
    "a?",
    "a*",
    "a[b",
    "a\\b",
    "@",
    "a@{1}",
    "/a",
    "a/",
    "a//b",
    "a.",
    "a/.hidden",
    "a.lock",
    "a/b.lock/c",
    "a\nb",
    "x".repeat(256),
  ])("refuses %j as git check-ref-format does", (name) => {
    expect(ref.safeParse(name).success).toBe(false);
  });

  it("wants a new branch's short name", () => {
    expect(newBranchField.safeParse("feature/x").success).toBe(true);
    expect(newBranchField.safeParse("refs/heads/feature/x").success).toBe(false);
    expect(newBranchField.safeParse("HEAD").success).toBe(false);
  });
});

describe("urlSegments", () => {
  it("percent-encodes each segment and keeps the slashes", () => {
    expect(urlSegments("src/a b/#x?{y}.ts")).toBe("src/a%20b/%23x%3F%7By%7D.ts");
  });
});
