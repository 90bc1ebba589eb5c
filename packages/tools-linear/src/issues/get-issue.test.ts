import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, type LinearHarness, okData, startLinearHarness } from "../fake/linear-harness.js";
import { issueUuid } from "../fake/linear-world.js";
import { COMMENTS_SHOWN } from "./get-issue.js";

let linear: LinearHarness;
beforeAll(async () => {
  linear = await startLinearHarness();
});
afterAll(() => linear.close());

type Read = {
  issue: {
    identifier: string;
    description: string;
    labels: string[];
    assignee: { displayName: string } | null;
  };
  comments: { author: string | null; body: string }[];
  olderComments: boolean;
};

describe("linear_get_issue", () => {
  it("reads an issue by identifier: description, labels and the latest comments", async () => {
    const envelope = await linear.call("linear_get_issue", { issue: "eng-1" });
    const data = okData<Read>(envelope);
    expect(linear.fake.operations().at(-1)).toMatchObject({
      name: "LinearIssue",
      variables: { id: "ENG-1", comments: COMMENTS_SHOWN },
    });
    expect(data.issue).toMatchObject({
      identifier: "ENG-1",
      labels: ["Bug"],
      assignee: { displayName: "ada" },
    });
    expect(data.issue.description).toContain("The button stays grey.");
    expect(data.comments).toEqual([
      expect.objectContaining({ author: "grace", body: "Reproduced on 17.1 too." }),
    ]);
    expect(data.olderComments).toBe(false);
    expect(envelope.ok && envelope.provenance).toEqual({
      source: expect.stringMatching(/^https:\/\/linear.app\/acme\/issue\/ENG-1\//),
      trusted: false,
    });
  });

  it("reads an issue by its UUID, and says only the latest comments are shown when there are more", async () => {
    const issueId = issueUuid(2);
    for (let index = 0; index < COMMENTS_SHOWN + 2; index++) {
      linear.fake.world.comments.push({
        id: `c1000000-0000-4000-8000-${String(index).padStart(12, "0")}`,
        issueId,
        body: `note ${index}`,
        userId: linear.fake.world.users[0]!.id,
        createdAt: "2026-11-03T10:00:00.000Z",
      });
    }
    const envelope = await linear.call("linear_get_issue", { issue: issueId.toUpperCase() });
    const data = okData<Read>(envelope);
    expect(linear.fake.operations().at(-1)?.variables.id).toBe(issueId);
    expect(data.comments).toHaveLength(COMMENTS_SHOWN);
    expect(data.comments.at(-1)?.body).toBe(`note ${COMMENTS_SHOWN + 1}`);
    expect(data.olderComments).toBe(true);
    expect(envelope.ok && envelope.truncated).toBe(true);
  });

  it("turns Linear's 200 with data null and 'Entity not found' into invalid_input pointing at the search", async () => {
    const error = failureOf(await linear.call("linear_get_issue", { issue: "ENG-999" }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(
      /Linear found nothing for issue ENG-999 \(Could not find referenced Issue\.\).*linear_search_issues/,
    );
    expect(error.details).toMatchObject({ status: 200, linearCode: "INPUT_ERROR" });
  });

  it("refuses what is neither an identifier nor a UUID with nothing sent", async () => {
    const before = linear.fake.requests.length;
    for (const issue of ["ENG 1", "ENG-0", "ENG-1/../2", "123", "ENG-1\u200b", "", "ENG-1234567890"]) {
      expect(failureOf(await linear.call("linear_get_issue", { issue })).code).toBe("invalid_input");
    }
    expect(linear.fake.requests.length).toBe(before);
  });
});
