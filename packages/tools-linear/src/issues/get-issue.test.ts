import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, type LinearHarness, okData, startLinearHarness } from "../fake/linear-harness.js";
import { issueUuid } from "../fake/linear-world.js";
import { COMMENTS_EACH_END } from "./get-issue.js";

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
  comments: { author: string | null; body: string; createdAt: string }[];
  moreComments: boolean;
  commentsOmitted: boolean;
  moreLabels: boolean;
};

/** Comments on `issueId` with bodies "note N", created N minutes after 10:00, pushed in a shuffled order. */
function addComments(issueId: string, count: number, body = (index: number) => `note ${index}`) {
  const order = Array.from({ length: count }, (_, index) => (index * 7) % count);
  for (const index of order) {
    linear.fake.world.comments.push({
      id: `c1000000-0000-4000-8000-${String(index).padStart(8, "0")}${issueId.slice(-4)}`,
      issueId,
      body: body(index),
      userId: linear.fake.world.users[0]!.id,
      createdAt: new Date(Date.UTC(2026, 10, 3, 10, index)).toISOString(),
    });
  }
}

describe("linear_get_issue", () => {
  it("reads an issue by identifier: description, labels and its comments, ordered by createdAt as asked", async () => {
    const envelope = await linear.call("linear_get_issue", { issue: "eng-1" });
    const data = okData<Read>(envelope);
    expect(linear.fake.operations().at(-1)).toMatchObject({
      name: "LinearIssue",
      variables: { id: "ENG-1", each: COMMENTS_EACH_END, withComments: true },
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
    expect(data.moreComments).toBe(false);
    expect(linear.fake.operations().at(-1)?.query).toMatch(/comments\(first: \$each, orderBy: createdAt\)/);
    expect(envelope.ok && envelope.provenance).toEqual({
      source: expect.stringMatching(/^https:\/\/linear.app\/acme\/issue\/ENG-1\//),
      trusted: false,
    });
  });

  it("reads an issue by its UUID; on a long thread, the oldest and newest comments by createdAt, oldest first", async () => {
    const issueId = issueUuid(2);
    addComments(issueId, 2 * COMMENTS_EACH_END + 5);
    const envelope = await linear.call("linear_get_issue", { issue: issueId.toUpperCase() });
    const data = okData<Read>(envelope);
    expect(linear.fake.operations().at(-1)?.variables.id).toBe(issueId);
    const expected = [
      ...Array.from({ length: COMMENTS_EACH_END }, (_, index) => index),
      ...Array.from({ length: COMMENTS_EACH_END }, (_, index) => COMMENTS_EACH_END + 5 + index),
    ].map((index) => `note ${index}`);
    expect(data.comments.map((comment) => comment.body)).toEqual(expected);
    expect(data.moreComments).toBe(true);
    expect(envelope.ok && envelope.truncated).toBe(true);
    expect(envelope.ok && envelope.content).toMatch(
      /the 10 oldest and the 10 newest; those between are not shown/,
    );
  });

  it("reads a thread of exactly both ends whole, sorted, saying nothing is left out", async () => {
    const issueId = linear.fake.world.issues[0]!.id;
    linear.fake.world.comments = linear.fake.world.comments.filter((comment) => comment.issueId !== issueId);
    addComments(issueId, 12);
    const data = okData<Read>(await linear.call("linear_get_issue", { issue: "ENG-1" }));
    expect(data.comments.map((comment) => comment.body)).toEqual(
      Array.from({ length: 12 }, (_, index) => `note ${index}`),
    );
    expect(data.moreComments).toBe(false);
  });

  it("reads the issue again without comments when they make the answer too large, and says so", async () => {
    const issue = linear.fake.world.issues.find((candidate) => candidate.number === 2)!;
    linear.fake.world.comments = linear.fake.world.comments.filter((comment) => comment.issueId !== issue.id);
    addComments(issue.id, 2 * COMMENTS_EACH_END, (index) => `${index} ${"x".repeat(120_000)}`);
    const before = linear.fake.operations().length;
    const envelope = await linear.call("linear_get_issue", { issue: "ENG-2" });
    const data = okData<Read>(envelope);
    expect(
      linear.fake
        .operations()
        .slice(before)
        .map((operation) => operation.variables.withComments),
    ).toEqual([true, false]);
    expect(data.comments).toEqual([]);
    expect(data.commentsOmitted).toBe(true);
    expect(envelope.ok && envelope.truncated).toBe(true);
    expect(envelope.ok && envelope.content).toMatch(/Comments not shown: with them the issue was too large/);
  });

  it("says when an issue has more labels than it reads", async () => {
    const labels = Array.from({ length: 21 }, (_, index) => ({
      id: `6b7c8d9e-0f1a-4b2c-9d3e-${String(index).padStart(12, "0")}`,
      name: `L${index}`,
    }));
    linear.fake.world.labels.push(...labels);
    linear.fake.world.issues[0]!.labelIds = labels.map((label) => label.id);
    const envelope = await linear.call("linear_get_issue", { issue: "ENG-1" });
    const data = okData<Read>(envelope);
    expect(data.issue.labels).toHaveLength(20);
    expect(data.moreLabels).toBe(true);
    expect(envelope.ok && envelope.content).toMatch(/and more \(only the first 20 shown\)/);
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
