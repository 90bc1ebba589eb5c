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
  confluence = await startConfluenceHarness({ maxPageChars: 1000 });
});
afterAll(() => confluence.close());
beforeEach(() => confluence.forget());

describe("confluence_get_page", () => {
  it("GETs the v2 page in storage format with the Basic credential egress injected, and returns markdown and its version", async () => {
    const result = successOf(await confluence.call("confluence_get_page", { pageId: RUNBOOK_ID }));
    expect(confluence.sent()).toMatchObject([
      {
        method: "GET",
        path: `/wiki/api/v2/pages/${RUNBOOK_ID}`,
        query: { "body-format": "storage" },
        headers: { authorization: BASIC_HEADER },
      },
    ]);
    expect(result.data).toEqual({
      id: RUNBOOK_ID,
      title: "Deploy runbook",
      spaceId: "98305",
      status: "current",
      version: 7,
      parentId: "393216",
      url: `https://acme.atlassian.net/wiki/spaces/ENG/pages/${RUNBOOK_ID}/Deploy%2Brunbook`,
      markdown: "## Deploy\n\nRun the **deploy** script.\n\n```bash\n./deploy.sh --env prod\n```",
    });
    expect(result.content).toContain("# Deploy runbook\n(page 393217, version 7, space 98305)");
    expect(result.provenance).toMatchObject({ trusted: false });
  });

  it("cuts a long page at maxPageChars and says not to update from the cut copy", async () => {
    confluence.fake.editPage("393218", `<p>${"word ".repeat(400)}</p>`);
    const result = successOf(await confluence.call("confluence_get_page", { pageId: "393218" }));
    expect(result.truncated).toBe(true);
    expect((result.data as { markdown: string }).markdown).toHaveLength(1000);
    expect(result.data).toMatchObject({ truncatedAtChars: 1000, version: 2 });
    expect(result.content).toMatch(/do not update this page from this copy/);
  });

  it("says a page it cannot find may be one this account cannot see", async () => {
    const error = failureOf(await confluence.call("confluence_get_page", { pageId: "999999" }));
    expect(error).toMatchObject({ code: "upstream_error", retryable: false, details: { status: 404 } });
    expect(error.message).toMatch(/no page 999999 \(Not Found\), or this account may not see it/);
  });

  it("refuses what is not a page id before sending anything", async () => {
    for (const pageId of ["12a", "../spaces", "0", "1".repeat(20), "123\n", " 123"]) {
      const error = failureOf(await confluence.call("confluence_get_page", { pageId }));
      expect(error.code).toBe("invalid_input");
    }
    expect(confluence.sent()).toEqual([]);
  });
});
