import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, type LinearHarness, okData, startLinearHarness } from "../fake/linear-harness.js";
import { issueUuid, TEST_KEY } from "../fake/linear-world.js";
import { derivedId } from "../linear-ids.js";

let linear: LinearHarness;
beforeAll(async () => {
  linear = await startLinearHarness();
});
afterAll(() => linear.close());

type Posted = { comment: { id: string; url: string; issue: string }; recovered: boolean };
const idFor = (idempotencyKey: string, tenantId = "t1") =>
  derivedId("linear_comment", { tenantId, idempotencyKey });

describe("linear_comment", () => {
  it("once approved, sends commentCreate with the derived id, the issue as given and the markdown body", async () => {
    const envelope = await linear.callApproved(
      "linear_comment",
      { issue: "ENG-1", body: "Fixed in **#42**:\n\n- retried payment" },
      { idempotencyKey: "host-key-comment-1" },
    );
    const data = okData<Posted>(envelope);
    expect(linear.fake.operations().at(-1)).toMatchObject({
      name: "LinearComment",
      kind: "mutation",
      authorization: TEST_KEY,
      variables: {
        input: {
          id: idFor("host-key-comment-1"),
          issueId: "ENG-1",
          body: "Fixed in **#42**:\n\n- retried payment",
        },
      },
    });
    expect(data).toMatchObject({
      comment: { id: idFor("host-key-comment-1"), issue: "ENG-1" },
      recovered: false,
    });
    expect(envelope.ok && envelope.content).toMatch(
      /Commented on ENG-1: https:\/\/linear.app\/acme\/issue\/ENG-1#comment-/,
    );
    expect(envelope.ok && envelope.content).not.toMatch(/answer was lost/);
    expect(linear.fake.world.comments.filter((comment) => comment.issueId === issueUuid(1))).toHaveLength(2);
  });

  it("reads a comment back by its id when Linear's answer was lost after posting, and a rerun posts nothing", async () => {
    const second = await startLinearHarness({ fake: linear.fake });
    try {
      const input = { issue: "ENG-2", body: "Deploying now" };
      const id = idFor("host-key-lost");
      linear.fake.next("lost-answer");
      const recovered = okData<Posted>(
        await linear.callApproved("linear_comment", input, { idempotencyKey: "host-key-lost" }),
      );
      expect(
        linear.fake
          .operations()
          .slice(-2)
          .map((operation) => operation.name),
      ).toEqual(["LinearComment", "LinearCommentById"]);
      expect(recovered).toMatchObject({ comment: { id, issue: "ENG-2" }, recovered: true });
      const again = okData<Posted>(
        await second.callApproved("linear_comment", input, { idempotencyKey: "host-key-lost" }),
      );
      expect(again.recovered).toBe(true);
      expect(linear.fake.operations().at(-1)).toMatchObject({ name: "LinearCommentById", variables: { id } });
      expect(linear.fake.world.comments.filter((comment) => comment.body === "Deploying now")).toHaveLength(
        1,
      );
    } finally {
      await second.close();
    }
  });

  it("fails as a conflict when the comment under its id has another body, and posts nothing", async () => {
    const second = await startLinearHarness({ fake: linear.fake });
    try {
      okData(
        await linear.callApproved(
          "linear_comment",
          { issue: "ENG-2", body: "one" },
          { idempotencyKey: "k-reused" },
        ),
      );
      const error = failureOf(
        await second.callApproved(
          "linear_comment",
          { issue: "ENG-2", body: "two" },
          { idempotencyKey: "k-reused" },
        ),
      );
      expect(error.code).toBe("idempotency_conflict");
      expect(linear.fake.world.comments.some((comment) => comment.body === "two")).toBe(false);
    } finally {
      await second.close();
    }
  });

  it("says an unknown issue is not found, after the read-back finds no comment either", async () => {
    const error = failureOf(await linear.callApproved("linear_comment", { issue: "ENG-404", body: "hello" }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/Linear found nothing for the comment on issue ENG-404/);
  });

  it("refuses blank, oversized or hidden-character bodies and bad issue names before parking or sending", async () => {
    const before = linear.fake.requests.length;
    for (const input of [
      { issue: "ENG-1", body: " \n\t " },
      { issue: "ENG-1", body: "x".repeat(65_537) },
      { issue: "ENG-1", body: "hi\u0000there" },
      { issue: "ENG-1", body: "hi\u2066there" },
      { issue: "#1", body: "hi" },
      { issue: "ENG-1" },
    ]) {
      expect(failureOf(await linear.call("linear_comment", input)).code).toBe("invalid_input");
    }
    expect(linear.fake.requests.length).toBe(before);
  });
});
