import type { PageObjectResponse } from "@notionhq/client";
import { describe, expect, it } from "vitest";
import { renderValue } from "./render-properties.js";

type Value = PageObjectResponse["properties"][string];
const ids = (count: number) =>
  Array.from({ length: count }, (_, index) => ({
    id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
  }));

describe("renderValue", () => {
  it("marks a relation Notion says has more than the 25 references it lists", () => {
    const more = { id: "r", type: "relation", relation: ids(25), has_more: true } as Value;
    const all = { id: "r", type: "relation", relation: ids(2), has_more: false } as Value;
    expect(renderValue(more)).toMatch(/, … more \(Notion lists 25 here/);
    expect(renderValue(all)).not.toContain("more");
  });

  it("marks 25 people as possibly more, since Notion lists no more than that", () => {
    const people = {
      id: "p",
      type: "people",
      people: ids(25).map((user) => ({ ...user, object: "user" })),
    } as Value;
    expect(renderValue(people)).toMatch(/… more/);
  });
});
