import { approvalIdOf } from "toolreg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  BASIC_HEADER,
  type ConfluenceHarness,
  failureOf,
  startConfluenceHarness,
  successOf,
} from "../fake/confluence-harness.js";
import { ENG_SPACE_ID } from "../fake/confluence-site.js";

let confluence: ConfluenceHarness;
beforeAll(async () => {
  confluence = await startConfluenceHarness();
});
afterAll(() => confluence.close());
beforeEach(() => confluence.forget());

describe("confluence_create_page", () => {
  it("parks for approval, then POSTs the page with its storage body and returns its id and version 1", async () => {
    const input = {
      spaceId: ENG_SPACE_ID,
      title: "Incident 42",
      markdown: "## Timeline\n\n- 09:00 paged",
      parentId: "393216",
    };
    expect(approvalIdOf(await confluence.call("confluence_create_page", input))).toEqual(expect.any(String));
    expect(confluence.sent()).toEqual([]);
    const result = successOf(await confluence.callApproved("confluence_create_page", input));
    const [sent] = confluence.sent();
    expect(sent).toMatchObject({
      method: "POST",
      path: "/wiki/api/v2/pages",
      headers: { authorization: BASIC_HEADER },
    });
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      spaceId: ENG_SPACE_ID,
      status: "current",
      title: "Incident 42",
      parentId: "393216",
      body: { representation: "storage", value: "<h2>Timeline</h2><ul><li>09:00 paged</li></ul>" },
    });
    const data = result.data as { id: string; version: number; url: string };
    expect(data).toMatchObject({ title: "Incident 42", spaceId: ENG_SPACE_ID, version: 1 });
    expect(data.url).toMatch(/^https:\/\/acme\.atlassian\.net\/wiki\/spaces\/ENG\/pages\/\d+\//);
    expect(confluence.fake.site.pages.get(data.id)?.title).toBe("Incident 42");
  });

  it("passes on Confluence's refusal of a title the space already has, as its v2 error says it", async () => {
    const error = failureOf(
      await confluence.callApproved("confluence_create_page", {
        spaceId: ENG_SPACE_ID,
        title: "Deploy runbook",
        markdown: "dup",
      }),
    );
    expect(error).toMatchObject({ code: "upstream_error", retryable: false, details: { status: 400 } });
    expect(error.message).toMatch(/A page with this title already exists/);
  });

  it("refuses a space key where the space id belongs, before parking", async () => {
    const error = failureOf(
      await confluence.call("confluence_create_page", { spaceId: "ENG", title: "T", markdown: "x" }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/a key such as ENG is not an id/);
    expect(confluence.sent()).toEqual([]);
  });

  it("refuses markdown it could not write (quotes nested too deep), before parking for approval", async () => {
    const error = failureOf(
      await confluence.call("confluence_create_page", {
        spaceId: ENG_SPACE_ID,
        title: "T",
        markdown: `${">".repeat(5000)} deep`,
      }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/nested more than 32 deep/);
    expect(error.message).not.toMatch(/call stack/);
    expect(confluence.sent()).toEqual([]);
  });
});
