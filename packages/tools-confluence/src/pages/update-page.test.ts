import { approvalIdOf } from "toolreg";
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

const puts = () => confluence.sent().filter((request) => request.method === "PUT");

async function versionOf(pageId: string): Promise<number> {
  const read = successOf(await confluence.call("confluence_get_page", { pageId }));
  return (read.data as { version: number }).version;
}

describe("confluence_update_page", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    const parked = await confluence.call("confluence_update_page", {
      pageId: RUNBOOK_ID,
      version: 7,
      title: "Deploy runbook",
      markdown: "x",
    });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(confluence.sent()).toEqual([]);
  });

  it("PUTs the page with the version read plus one and the markdown as storage, and reports the new version", async () => {
    const version = await versionOf("393216");
    const result = successOf(
      await confluence.callApproved("confluence_update_page", {
        pageId: "393216",
        version,
        title: "Engineering Home",
        markdown: "Welcome to **Engineering**.\n\n```ts\nconst a = 1;\n```",
        versionMessage: "bold the team",
      }),
    );
    const sent = puts().at(-1);
    expect(sent).toMatchObject({
      path: "/wiki/api/v2/pages/393216",
      headers: { authorization: BASIC_HEADER },
    });
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      id: "393216",
      status: "current",
      title: "Engineering Home",
      body: {
        representation: "storage",
        value:
          '<p>Welcome to <strong>Engineering</strong>.</p><ac:structured-macro ac:name="code" ac:schema-version="1"><ac:parameter ac:name="language">ts</ac:parameter><ac:plain-text-body><![CDATA[const a = 1;]]></ac:plain-text-body></ac:structured-macro>',
      },
      version: { number: version + 1, message: "bold the team" },
    });
    expect(result.data).toMatchObject({ id: "393216", version: version + 1 });
    expect(confluence.fake.site.pages.get("393216")?.version).toBe(version + 1);
  });

  it("refuses with precondition_failed when the page changed since it was read, naming its version, and never reads or retries", async () => {
    const read = await versionOf(RUNBOOK_ID);
    confluence.fake.editPage(RUNBOOK_ID, "<p>someone else's edit</p>");
    confluence.forget();
    const error = failureOf(
      await confluence.callApproved("confluence_update_page", {
        pageId: RUNBOOK_ID,
        version: read,
        title: "Deploy runbook",
        markdown: "my edit",
      }),
    );
    expect(error.code).toBe("precondition_failed");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(
      new RegExp(
        `page ${RUNBOOK_ID} changed since version ${read} was read \\(it is at version ${read + 1} now\\); nothing was written. Read it again with confluence_get_page`,
      ),
    );
    expect(error.details).toMatchObject({ status: 409, versionRead: read, currentVersion: read + 1 });
    // One PUT, no GET: the tool does not re-read and overwrite.
    expect(confluence.sent().map((request) => request.method)).toEqual(["PUT"]);
    expect(confluence.fake.site.pages.get(RUNBOOK_ID)?.storage).toBe("<p>someone else's edit</p>");
  });

  it("lets exactly one of two writers who read the same version through; the other is told to read again", async () => {
    const read = await versionOf(RUNBOOK_ID);
    const write = (text: string) =>
      confluence.callApproved(
        "confluence_update_page",
        { pageId: RUNBOOK_ID, version: read, title: "Deploy runbook", markdown: text },
        confluence.context(),
      );
    const [first, second] = await Promise.all([write("writer one"), write("writer two")]);
    const outcomes = [first, second].map((envelope) => (envelope.ok ? "ok" : envelope.error.code)).sort();
    expect(outcomes).toEqual(["ok", "precondition_failed"]);
    const winner = first.ok ? "writer one" : "writer two";
    const page = confluence.fake.site.pages.get(RUNBOOK_ID);
    expect(page?.version).toBe(read + 1);
    expect(page?.storage).toBe(`<p>${winner}</p>`);
    expect(puts()).toHaveLength(2);
  });

  it("says a 409 without a version in it changed too, without inventing one", async () => {
    confluence.fake.failNext({
      status: 409,
      body: { errors: [{ status: 409, code: "CONFLICT", title: "Conflict", detail: null }] },
    });
    const error = failureOf(
      await confluence.callApproved("confluence_update_page", {
        pageId: RUNBOOK_ID,
        version: 1,
        title: "T",
        markdown: "x",
      }),
    );
    expect(error.code).toBe("precondition_failed");
    expect(error.details).not.toHaveProperty("currentVersion");
  });

  it("refuses a missing version, a bad id, a title on two lines and hidden characters before parking", async () => {
    const base = { pageId: RUNBOOK_ID, version: 7, title: "Deploy runbook", markdown: "ok" };
    for (const input of [
      { ...base, version: undefined },
      { ...base, version: 0 },
      { ...base, version: 1.5 },
      { ...base, pageId: "abc" },
      { ...base, title: "two\nlines" },
      { ...base, title: "x".repeat(256) },
      { ...base, markdown: "hidden\u202Eorder" },
      { ...base, markdown: "bell\u0007" },
      { ...base, markdown: "   " },
      { ...base, markdown: "x".repeat(200_001) },
    ]) {
      const envelope = await confluence.call("confluence_update_page", input);
      expect(failureOf(envelope).code).toBe("invalid_input");
    }
    expect(confluence.sent()).toEqual([]);
  });
});
