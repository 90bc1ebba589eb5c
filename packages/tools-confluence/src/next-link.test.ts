import { describe, expect, it } from "vitest";
import { nextLinkOf } from "./next-link.js";

describe("nextLinkOf", () => {
  it("follows v2's _links.next from the site root, and v1's from its context", () => {
    expect(nextLinkOf({ next: "/wiki/api/v2/spaces?cursor=abc" }, undefined)).toBe(
      "/wiki/api/v2/spaces?cursor=abc",
    );
    expect(
      nextLinkOf({ next: "/rest/api/search?cql=type%3Dpage&cursor=x1", context: "/wiki" }, undefined),
    ).toBe("/wiki/rest/api/search?cql=type%3Dpage&cursor=x1");
  });

  it("reads the Link header's rel=next when the body has none, and ends where neither has one", () => {
    const header =
      '</wiki/api/v2/spaces?cursor=z9>; rel="next", <https://acme.atlassian.net/wiki>; rel="base"';
    expect(nextLinkOf({}, header)).toBe("/wiki/api/v2/spaces?cursor=z9");
    expect(nextLinkOf({}, '<https://acme.atlassian.net/wiki>; rel="base"')).toBeUndefined();
    expect(nextLinkOf(undefined, undefined)).toBeUndefined();
  });

  it("sends the resolved form of a link with dot segments that stays under /wiki", () => {
    expect(nextLinkOf({ next: "/wiki/api/v2/../v2/spaces?cursor=a" }, undefined)).toBe(
      "/wiki/api/v2/spaces?cursor=a",
    );
  });

  it("refuses a link off the API root", () => {
    for (const next of [
      "https://evil.example/wiki/api/v2/spaces",
      "//evil.example/wiki/x",
      "/wiki/../admin",
      "/wiki/%2e%2e/admin/x",
      "/wiki/%2E%2E/admin/x",
      "/wiki/..",
      "/wiki/api/../../admin",
      "/wiki/a b",
    ]) {
      expect(() => nextLinkOf({ next }, undefined)).toThrow(/not a path under \/wiki/);
    }
  });
});
