/** @module The first element's text, found in time linear in the file whatever it holds. */
import { describe, expect, it } from "vitest";
import { elementText } from "./element-text.js";

describe("elementText", () => {
  it("reads the first element of the name, attributes and case aside, and nothing without a closing tag", () => {
    expect(elementText('<head><TITLE lang="en">Q3 &amp; more</title ></head>', "title")).toBe(
      "Q3 &amp; more",
    );
    expect(elementText("<dc:title>Plan</dc:title><dc:title>Later</dc:title>", "dc:title")).toBe("Plan");
    expect(elementText("<titlebar>no</titlebar>", "title")).toBeUndefined();
    expect(elementText("<title>never closed", "title")).toBeUndefined();
    expect(elementText("<title", "title")).toBeUndefined();
  });

  it("answers at once on a megabyte of openings with no closing tag", () => {
    const started = performance.now();
    expect(elementText("<title>".repeat(150_000), "title")).toBeUndefined();
    expect(elementText(`<dc:title>${"</dc:title ".repeat(100_000)}`, "dc:title")).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
