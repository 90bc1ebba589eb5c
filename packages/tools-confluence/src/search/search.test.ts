import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BASIC_HEADER,
  type ConfluenceHarness,
  failureOf,
  startConfluenceHarness,
  successOf,
} from "../fake/confluence-harness.js";
import { RUNBOOK_ID } from "../fake/confluence-site.js";

let confluence: ConfluenceHarness;
beforeAll(async () => {
  confluence = await startConfluenceHarness();
});
afterAll(() => confluence.close());
beforeEach(() => confluence.forget());

interface Found {
  results: { type: string; id?: string; title: string; space?: string; excerpt?: string; url?: string }[];
  complete: boolean;
}

describe("confluence_search", () => {
  it("GETs v1 search with the CQL, and returns hits without Confluence's highlight marks", async () => {
    const cql = 'type = page AND text ~ "runbook"';
    const result = successOf(await confluence.call("confluence_search", { cql }));
    expect(confluence.sent()).toMatchObject([
      {
        method: "GET",
        path: "/wiki/rest/api/search",
        query: { cql, limit: "25" },
        headers: { authorization: BASIC_HEADER },
      },
    ]);
    const data = result.data as Found;
    expect(data.results).toEqual([
      {
        type: "page",
        id: RUNBOOK_ID,
        title: "Deploy runbook",
        space: "Engineering",
        excerpt: "Deploy Run the deploy script. bash",
        lastModified: "2026-12-01T10:00:00.000Z",
        url: `https://acme.atlassian.net/wiki/spaces/ENG/pages/${RUNBOOK_ID}`,
      },
    ]);
    expect(data.complete).toBe(true);
    expect(result.provenance).toMatchObject({ trusted: false });
  });

  it("stops at the limit asked and says there are more", async () => {
    const result = successOf(
      await confluence.call("confluence_search", { cql: 'text ~ "deploy"', limit: 1 }),
    );
    expect((result.data as Found).results).toHaveLength(1);
    expect((result.data as Found).complete).toBe(false);
    expect(result.truncated).toBe(true);
    expect(confluence.sent()).toMatchObject([{ query: { limit: "1" } }]);
  });

  it("follows _links.next below its /wiki context when Confluence sends fewer than asked", async () => {
    const cql = 'text ~ "deploy"';
    confluence.fake.failNext({
      status: 200,
      body: {
        results: [{ content: { id: "393218", type: "page" }, title: "Deploy checklist" }],
        _links: {
          context: "/wiki",
          next: `/rest/api/search?cql=${encodeURIComponent(cql)}&limit=25&cursor=MQ`,
        },
      },
    });
    const result = successOf(await confluence.call("confluence_search", { cql, limit: 3 }));
    expect((result.data as Found).results.map((hit) => hit.id)).toEqual(["393218", "393218"]);
    expect(confluence.sent().map((request) => request.path)).toEqual([
      "/wiki/rest/api/search",
      "/wiki/rest/api/search",
    ]);
    expect(confluence.sent()[1]?.query).toMatchObject({ cql, cursor: "MQ" });
    expect((result.data as Found).complete).toBe(true);
  });

  it("reads v1's error body for CQL Confluence cannot parse", async () => {
    const error = failureOf(await confluence.call("confluence_search", { cql: "nonsense ~~ here" }));
    expect(error).toMatchObject({ code: "upstream_error", retryable: false, details: { status: 400 } });
    expect(error.message).toMatch(/Could not parse cql : nonsense ~~ here/);
  });

  it("refuses CQL that is too long or holds control or invisible characters, before sending", async () => {
    for (const cql of ["", "   ", "x".repeat(2001), 'text ~ "a"\nAND 1', "type = page\u200B"]) {
      expect(failureOf(await confluence.call("confluence_search", { cql })).code).toBe("invalid_input");
    }
    expect(confluence.sent()).toEqual([]);
  });
});
