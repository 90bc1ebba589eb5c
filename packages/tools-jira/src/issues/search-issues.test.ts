import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type JiraHarness, startJiraHarness } from "../fake/jira-harness.js";
import { STORED_CREDENTIAL } from "../fake/jira-site.js";

let jira: JiraHarness;
beforeAll(async () => {
  jira = await startJiraHarness({ maxPages: 2 });
});
afterEach(() => {
  jira.fake.requests.length = 0;
  jira.site.pageCap = 100;
});
afterAll(() => jira.close());

const BASIC = `Basic ${Buffer.from(STORED_CREDENTIAL).toString("base64")}`;
const search = (input: unknown) => jira.call("jira_search_issues", input);

describe("jira_search_issues", () => {
  it("POSTs the JQL to /rest/api/3/search/jql with the fields it shows, as HTTP Basic from the stored email:token", async () => {
    const result = await search({ jql: "project = OPS ORDER BY updated DESC" });
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests).toMatchObject([
      {
        method: "POST",
        path: "/rest/api/3/search/jql",
        authorization: BASIC,
        body: {
          jql: "project = OPS ORDER BY updated DESC",
          maxResults: 50,
          fields: ["summary", "status", "assignee", "issuetype", "priority", "updated", "project"],
        },
      },
    ]);
    expect(result.content).toContain(
      "2 issues:\nOPS-1 [To Do] OPS issue 1 (unassigned)\nOPS-2 [To Do] OPS issue 2 (unassigned)",
    );
    expect(result.data).toMatchObject({
      complete: true,
      issues: [
        {
          key: "OPS-1",
          status: "To Do",
          statusCategory: "new",
          type: "Task",
          url: "https://acme.atlassian.net/browse/OPS-1",
        },
        { key: "OPS-2" },
      ],
    });
    expect(result.provenance).toMatchObject({ trusted: false });
  });

  it("follows nextPageToken until Jira leaves it out", async () => {
    jira.site.pageCap = 5;
    const result = await search({ jql: "project = PROJ", limit: 12 });
    if (!result.ok) throw new Error(result.error.message);
    const bodies = jira.fake.requests.map((request) => request.body as { nextPageToken?: string });
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.nextPageToken).toBeUndefined();
    expect(bodies[1]?.nextPageToken).toEqual(expect.any(String));
    // Two pages is the deployment's bound: 10 of 12, and the model is told there are more.
    expect(result.data).toMatchObject({ complete: false });
    expect((result.data as { issues: unknown[] }).issues).toHaveLength(10);
    expect(result.content).toContain(
      "The first 10 issues; there are more: narrow the query or raise the limit:",
    );
  });

  it("stops at the limit asked for without requesting another page", async () => {
    const result = await search({ jql: "project = PROJ", limit: 3 });
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests).toHaveLength(1);
    expect(jira.fake.requests[0]?.body).toMatchObject({ maxResults: 3 });
    expect(result.data).toMatchObject({ complete: false });
  });

  it("tells Jira's 400 as invalid input, with its words", async () => {
    const result = await search({ jql: "project = NOPE" });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message:
          "Jira rejected the JQL search: The value 'NOPE' does not exist for the field 'project'.; change the input before retrying",
      },
    });
  });

  it("refuses hostile JQL before sending anything", async () => {
    for (const jql of [
      "project = PROJ\u0000",
      "project = PROJ\nAND x",
      "   ",
      "x".repeat(4_001),
      "project = PROJ\u200b",
    ]) {
      const result = await search({ jql });
      expect(result.ok ? "ok" : result.error.code, JSON.stringify(jql).slice(0, 30)).toBe("invalid_input");
    }
    expect(await search({ jql: "project = PROJ", limit: 0 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(jira.fake.requests).toEqual([]);
  });

  it("tells a 429 as a wait: without Retry-After, with it, and with the beta limits' Beta-Retry-After", async () => {
    jira.fake.next("rate-limited");
    const bare = await search({ jql: "project = OPS" });
    expect(bare).toMatchObject({ ok: false, error: { code: "upstream_rate_limited", retryable: true } });
    if (!bare.ok) expect(bare.error.retryAfterMs).toBeUndefined();

    jira.fake.next("rate-limited-retry-after");
    expect(await search({ jql: "project = OPS" })).toMatchObject({
      ok: false,
      error: {
        code: "upstream_rate_limited",
        retryAfterMs: 7_000,
        message: "Jira is rate limiting these requests (jira-burst-based); try again in 7 s",
        details: { status: 429, reason: "jira-burst-based" },
      },
    });

    jira.fake.next("rate-limited-beta");
    expect(await search({ jql: "project = OPS" })).toMatchObject({
      ok: false,
      error: {
        code: "upstream_rate_limited",
        retryAfterMs: 12_000,
        details: { reason: "jira-quota-tenant-based" },
      },
    });

    // Only the reset time (yyyy-MM-ddTHH:mmZ, one to two minutes ahead in the fake): the wait runs until then.
    for (const scenario of ["rate-limited-reset-only", "rate-limited-beta-reset-only"] as const) {
      jira.fake.next(scenario);
      const reset = await search({ jql: "project = OPS" });
      expect(reset, scenario).toMatchObject({ ok: false, error: { code: "upstream_rate_limited" } });
      const waited = reset.ok ? undefined : reset.error.retryAfterMs;
      expect(waited, scenario).toBeGreaterThan(55_000);
      expect(waited, scenario).toBeLessThanOrEqual(120_000);
    }
  });

  it("tells a 503 with Retry-After as retryable, and a cut or non-JSON answer as an upstream error", async () => {
    jira.fake.next("unavailable");
    expect(await search({ jql: "project = OPS" })).toMatchObject({
      ok: false,
      error: { code: "upstream_error", retryable: true, retryAfterMs: 30_000 },
    });
    jira.fake.next("malformed");
    expect(await search({ jql: "project = OPS" })).toMatchObject({
      ok: false,
      error: { code: "upstream_error", message: expect.stringMatching(/something other than its JSON/) },
    });
    jira.fake.next("html");
    expect(await search({ jql: "project = OPS" })).toMatchObject({
      ok: false,
      error: { code: "upstream_error", message: expect.stringMatching(/content type text\/html/) },
    });
  });

  it("tells a refused API token as a credential problem", async () => {
    const result = await jira.call(
      "jira_search_issues",
      { jql: "project = OPS" },
      "ann@acme.example:revoked",
    );
    // The seam gives up a credential Jira refused (HTTP Basic is the credential itself, no cached token).
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "auth_required",
        retryable: false,
        details: { status: 401, credentialRef: "jira", credentialRejected: true },
      },
    });
    expect(jira.fake.requests[0]?.authorization).toBe(
      `Basic ${Buffer.from("ann@acme.example:revoked").toString("base64")}`,
    );
  });
});
