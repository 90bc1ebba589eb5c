import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BASIC_HEADER,
  type ConfluenceHarness,
  failureOf,
  startConfluenceHarness,
  successOf,
} from "../fake/confluence-harness.js";

let confluence: ConfluenceHarness;
beforeAll(async () => {
  confluence = await startConfluenceHarness({ maxItems: 4 });
});
afterAll(() => confluence.close());
beforeEach(() => confluence.forget());

interface Listed {
  spaces: { id: string; key: string; name: string; url?: string }[];
  complete: boolean;
}

describe("confluence_list_spaces", () => {
  it("follows the cursor in _links.next page by page, and lists every space when they fit", async () => {
    const result = successOf(await confluence.call("confluence_list_spaces", { limit: 2, type: "global" }));
    const data = result.data as Listed;
    expect(data.spaces.map((space) => space.key)).toEqual(["ENG", "OPS"]);
    expect(data.complete).toBe(false);
    expect(confluence.sent()).toMatchObject([
      {
        method: "GET",
        path: "/wiki/api/v2/spaces",
        query: { limit: "2", type: "global", "description-format": "plain" },
        headers: { authorization: BASIC_HEADER },
      },
    ]);
    expect(data.spaces[0]).toMatchObject({
      id: "98305",
      name: "Engineering",
      url: "https://acme.atlassian.net/wiki/spaces/ENG",
    });
  });

  it("stops at the deployment's maxItems and says there are more", async () => {
    const result = successOf(await confluence.call("confluence_list_spaces", {}));
    const data = result.data as Listed;
    expect(data.spaces).toHaveLength(4);
    expect(data.complete).toBe(false);
    expect(result.truncated).toBe(true);
    expect(confluence.sent()).toHaveLength(1);
    expect(result.content).toContain("the first 4 spaces; there are more");
  });

  it("walks the cursor to the end when the list is smaller than the bound", async () => {
    const result = successOf(
      await confluence.call("confluence_list_spaces", { keys: ["ENG", "OPS", "HR"], limit: 3 }),
    );
    expect((result.data as Listed).spaces.map((space) => space.key)).toEqual(["ENG", "OPS", "HR"]);
    expect((result.data as Listed).complete).toBe(true);
    expect(confluence.sent()[0]?.search).toContain("keys=ENG,OPS,HR");
  });

  it("follows the Link header's rel=next when the body has no _links.next", async () => {
    const next = "/wiki/api/v2/spaces?limit=1&cursor=Mg";
    confluence.fake.failNext({
      status: 200,
      headers: { link: `<${next}>; rel="next", <https://acme.atlassian.net/wiki>; rel="base"` },
      body: { results: [{ id: "98305", key: "ENG", name: "Engineering" }], _links: {} },
    });
    const result = successOf(await confluence.call("confluence_list_spaces", { limit: 2 }));
    expect((result.data as Listed).spaces.map((space) => space.key)).toEqual(["ENG", "HR"]);
    expect(confluence.sent()[1]).toMatchObject({
      path: "/wiki/api/v2/spaces",
      query: { cursor: "Mg", limit: "1" },
    });
  });

  it("refuses a space key that is not one, and too many keys, before sending", async () => {
    for (const input of [
      { keys: ["ENG OR 1=1"] },
      { keys: ["a/b"] },
      { keys: [] },
      { keys: Array(26).fill("ENG") },
      { limit: 0 },
    ]) {
      expect(failureOf(await confluence.call("confluence_list_spaces", input)).code).toBe("invalid_input");
    }
    expect(confluence.sent()).toEqual([]);
  });
});
