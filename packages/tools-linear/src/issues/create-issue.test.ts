import { approvalIdOf } from "toolreg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, type LinearHarness, okData, startLinearHarness } from "../fake/linear-harness.js";
import { ADA, BUG_LABEL, ENG, ENG_DONE, OPS_DONE, TEST_KEY } from "../fake/linear-world.js";
import { derivedId } from "../linear-ids.js";

let linear: LinearHarness;
beforeAll(async () => {
  linear = await startLinearHarness();
});
afterAll(() => linear.close());

const creates = () => linear.fake.operations().filter((operation) => operation.name === "LinearCreateIssue");
type Created = {
  issue: { identifier: string; id: string; state: { name: string }; url: string };
  recovered: boolean;
};
const idFor = (idempotencyKey: string, tenantId = "t1") =>
  derivedId("linear_create_issue", { tenantId, idempotencyKey });

describe("linear_create_issue", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    const parked = await linear.call("linear_create_issue", { teamId: ENG, title: "Parked" });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(linear.fake.requests).toHaveLength(0);
  });

  it("once approved, sends issueCreate with an id derived from the idempotency key, and the issue exists", async () => {
    const envelope = await linear.callApproved(
      "linear_create_issue",
      {
        teamId: ENG,
        title: "  Dark mode toggle  ",
        description: "As a user\n\t- I want a dark mode",
        priority: 3,
        assigneeId: ADA,
        labelIds: [BUG_LABEL],
      },
      { idempotencyKey: "host-key-create-1" },
    );
    const data = okData<Created>(envelope);
    const sent = creates().at(-1);
    expect(sent).toMatchObject({ kind: "mutation", authorization: TEST_KEY });
    expect(sent?.variables).toEqual({
      input: {
        id: idFor("host-key-create-1"),
        teamId: ENG,
        title: "Dark mode toggle",
        description: "As a user\n\t- I want a dark mode",
        priority: 3,
        assigneeId: ADA,
        labelIds: [BUG_LABEL],
      },
    });
    expect(data.issue).toMatchObject({
      identifier: "ENG-3",
      id: idFor("host-key-create-1"),
      state: { name: "Todo" },
    });
    expect(data.recovered).toBe(false);
    expect(envelope.ok && envelope.content).toMatch(
      /Created: ENG-3 \[Todo\] Dark mode toggle \(Medium; ada\)/,
    );
    expect(linear.fake.world.issues.filter((issue) => issue.title === "Dark mode toggle")).toHaveLength(1);
  });

  it("creates one issue when the same call runs twice under one key: Linear refuses the id, the tool reads it back", async () => {
    const second = await startLinearHarness({ fake: linear.fake });
    try {
      const input = { teamId: ENG, title: "Only once" };
      const first = okData<Created>(
        await linear.callApproved("linear_create_issue", input, { idempotencyKey: "host-key-twice" }),
      );
      // Another seam (its own stores) runs the same call again: only Linear can stop a second issue now.
      const again = await second.callApproved("linear_create_issue", input, {
        idempotencyKey: "host-key-twice",
      });
      const repeated = okData<Created>(again);
      expect(
        creates()
          .slice(-2)
          .map((operation) => (operation.variables.input as { id: string }).id),
      ).toEqual([idFor("host-key-twice"), idFor("host-key-twice")]);
      expect(linear.fake.operations().at(-1)).toMatchObject({
        name: "LinearIssueById",
        variables: { id: first.issue.id },
      });
      expect(repeated).toEqual({ issue: first.issue, recovered: true });
      expect(again.ok && again.content).toMatch(
        /Created \(Linear's answer was lost; the issue was found by its id\): ENG-\d+/,
      );
      expect(linear.fake.world.issues.filter((issue) => issue.title === "Only once")).toHaveLength(1);
    } finally {
      await second.close();
    }
  });

  it("creates two issues for two tenants that share a workspace and an idempotency key", async () => {
    const input = { teamId: ENG, title: "Same key, two tenants" };
    const first = okData<Created>(
      await linear.callApproved("linear_create_issue", input, {
        idempotencyKey: "shared-key",
        tenantId: "t1",
      }),
    );
    const second = okData<Created>(
      await linear.callApproved("linear_create_issue", input, {
        idempotencyKey: "shared-key",
        tenantId: "t2",
      }),
    );
    expect([first.issue.id, second.issue.id]).toEqual([idFor("shared-key", "t1"), idFor("shared-key", "t2")]);
    expect(second.recovered).toBe(false);
    expect(linear.fake.world.issues.filter((issue) => issue.title === input.title)).toHaveLength(2);
  });

  it("fails as a conflict when the issue under its id is not what this call asked for", async () => {
    const second = await startLinearHarness({ fake: linear.fake });
    try {
      okData(
        await linear.callApproved(
          "linear_create_issue",
          { teamId: ENG, title: "First title" },
          { idempotencyKey: "host-key-reused" },
        ),
      );
      const error = failureOf(
        await second.callApproved(
          "linear_create_issue",
          { teamId: ENG, title: "Another title" },
          { idempotencyKey: "host-key-reused" },
        ),
      );
      expect(error.code).toBe("idempotency_conflict");
      expect(error.message).toMatch(/a different entity.*retry with a new idempotency key/);
      expect(linear.fake.world.issues.some((issue) => issue.title === "Another title")).toBe(false);
    } finally {
      await second.close();
    }
  });

  it("derives a v4-laid-out id from tenant, tool and key, and refuses to run without a key", () => {
    const id = idFor("k");
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(idFor("k")).toBe(id);
    expect(
      new Set([
        id,
        idFor("k2"),
        idFor("k", "t2"),
        derivedId("linear_comment", { tenantId: "t1", idempotencyKey: "k" }),
      ]).size,
    ).toBe(4);
    // Length-prefixed parts: no tenant or key can be shifted into another's place.
    expect(derivedId("x", { tenantId: "a:b", idempotencyKey: "c" })).not.toBe(
      derivedId("x", { tenantId: "a", idempotencyKey: "b:c" }),
    );
    expect(() => derivedId("linear_create_issue", { tenantId: "t1", idempotencyKey: undefined })).toThrow(
      /idempotency key/,
    );
  });

  it("checks a stateId against the team's states first, and refuses another team's state listing the choices", async () => {
    const before = creates().length;
    const refused = failureOf(
      await linear.callApproved("linear_create_issue", {
        teamId: ENG,
        title: "Wrong state",
        stateId: OPS_DONE,
      }),
    );
    expect(refused.code).toBe("precondition_failed");
    expect(refused.message).toMatch(
      /not a workflow state of team ENG \(Engineering\).*Backlog \(backlog\) e0000000-.*Done \(completed\)/,
    );
    expect(creates().length).toBe(before);
    const created = okData<Created>(
      await linear.callApproved("linear_create_issue", { teamId: ENG, title: "Shipped", stateId: ENG_DONE }),
    );
    expect(
      linear.fake
        .operations()
        .slice(-2)
        .map((operation) => operation.name),
    ).toEqual(["LinearTeamStates", "LinearCreateIssue"]);
    expect(created.issue.state.name).toBe("Done");
  });

  it("answers Linear's rate limit without reading back or creating", async () => {
    linear.fake.next("rate-limited");
    const error = failureOf(await linear.callApproved("linear_create_issue", { teamId: ENG, title: "Busy" }));
    expect(error.code).toBe("upstream_rate_limited");
    expect(linear.fake.operations().at(-1)?.name).toBe("LinearCreateIssue");
    expect(linear.fake.world.issues.some((issue) => issue.title === "Busy")).toBe(false);
  });

  it("refuses hostile input before parking or sending", async () => {
    const before = linear.fake.requests.length;
    for (const input of [
      { teamId: "ENG", title: "t" },
      { teamId: ENG, title: "" },
      { teamId: ENG, title: "two\nlines" },
      { teamId: ENG, title: "x".repeat(256) },
      { teamId: ENG, title: "ok", description: "bell\u0007" },
      { teamId: ENG, title: "ok", priority: 5 },
      { teamId: ENG, title: "ok", stateId: "Done" },
      { teamId: ENG, title: "ok", labelIds: Array.from({ length: 21 }, () => BUG_LABEL) },
      { teamId: ENG, title: "ok", id: "00000000-0000-4000-8000-000000000000" },
    ]) {
      const envelope = await linear.call("linear_create_issue", input);
      expect(failureOf(envelope).code, JSON.stringify(input)).toBe("invalid_input");
    }
    expect(linear.fake.requests.length).toBe(before);
  });
});
