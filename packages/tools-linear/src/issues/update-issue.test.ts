import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, type LinearHarness, okData, startLinearHarness } from "../fake/linear-harness.js";
import { ADA, ENG, ENG_DONE, issueUuid, OPS_DONE } from "../fake/linear-world.js";

let linear: LinearHarness;
beforeAll(async () => {
  linear = await startLinearHarness();
});
afterAll(() => linear.close());

const names = (from: number) =>
  linear.fake
    .operations()
    .slice(from)
    .map((operation) => operation.name);
type Updated = {
  issue: { identifier: string; state: { name: string }; title: string; assignee: unknown };
  changed: string[];
};

describe("linear_update_issue", () => {
  it("moves an issue by its stateId: the team's states are read first, then issueUpdate is sent", async () => {
    const before = linear.fake.operations().length;
    const envelope = await linear.callApproved("linear_update_issue", {
      issue: "ENG-2",
      stateId: ENG_DONE.toUpperCase(),
    });
    const data = okData<Updated>(envelope);
    expect(names(before)).toEqual(["LinearIssueTeam", "LinearTeamStates", "LinearUpdateIssue"]);
    const [owner, states, update] = linear.fake.operations().slice(before);
    expect(owner?.variables).toEqual({ id: "ENG-2" });
    expect(states?.variables).toMatchObject({ teamId: ENG });
    expect(update?.variables).toEqual({ id: "ENG-2", input: { stateId: ENG_DONE } });
    expect(data).toMatchObject({
      issue: { identifier: "ENG-2", state: { name: "Done" } },
      changed: ["stateId"],
    });
    expect(linear.fake.world.issues.find((issue) => issue.id === issueUuid(2))?.stateId).toBe(ENG_DONE);
  });

  it("refuses a state of another team with precondition_failed naming the team's states, writing nothing", async () => {
    const before = linear.fake.operations().length;
    const error = failureOf(
      await linear.callApproved("linear_update_issue", { issue: "ENG-1", stateId: OPS_DONE }),
    );
    expect(error.code).toBe("precondition_failed");
    expect(error.message).toMatch(new RegExp(`the state ${OPS_DONE} is not a workflow state of team ENG`));
    expect(error.message).toContain("In Progress (started) e0000000-0000-4000-8000-000000000002");
    expect(error.details?.states).toHaveLength(5);
    expect(names(before)).toEqual(["LinearIssueTeam", "LinearTeamStates"]);
  });

  it("changes other fields in one issueUpdate, without reading states, and unassigns with null", async () => {
    const before = linear.fake.operations().length;
    const data = okData<Updated>(
      await linear.callApproved("linear_update_issue", {
        issue: issueUuid(1),
        title: " Checkout fails on Safari 17 ",
        priority: 1,
        assigneeId: null,
      }),
    );
    expect(names(before)).toEqual(["LinearUpdateIssue"]);
    expect(linear.fake.operations().at(-1)?.variables).toEqual({
      id: issueUuid(1),
      input: { title: "Checkout fails on Safari 17", priority: 1, assigneeId: null },
    });
    expect(data.issue).toMatchObject({ title: "Checkout fails on Safari 17", assignee: null });
    expect(data.changed.sort()).toEqual(["assigneeId", "priority", "title"]);
    okData(await linear.callApproved("linear_update_issue", { issue: "ENG-1", assigneeId: ADA }));
  });

  it("says an issue Linear does not know is not found", async () => {
    const error = failureOf(
      await linear.callApproved("linear_update_issue", { issue: "ENG-404", priority: 2 }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/Could not find referenced Issue/);
  });

  it("refuses an update that changes nothing, and hostile values, before parking or sending", async () => {
    const before = linear.fake.requests.length;
    for (const input of [
      { issue: "ENG-1" },
      { issue: "ENG-1", stateId: "In Progress" },
      { issue: "ENG-1", title: "a\rb" },
      { issue: "ENG-1; drop", priority: 1 },
      { issue: "ENG-1", assigneeId: "ada" },
      { issue: "ENG-1", state: "Done" },
    ]) {
      expect(failureOf(await linear.call("linear_update_issue", input)).code, JSON.stringify(input)).toBe(
        "invalid_input",
      );
    }
    expect(linear.fake.requests.length).toBe(before);
  });

  it("names at most 12 states in a refusal's message, and every state in its details", async () => {
    for (let index = 5; index < 15; index++) {
      linear.fake.world.states.push({
        id: `e0000000-0000-4000-8000-0000000000${index}`,
        teamId: ENG,
        name: `Stage ${index}`,
        type: "started",
        position: index,
      });
    }
    const error = failureOf(
      await linear.callApproved("linear_update_issue", { issue: "ENG-1", stateId: OPS_DONE }),
    );
    expect(error.message).toMatch(
      /Stage 11 \(started\) e0000000-0000-4000-8000-000000000011 and 3 more \(all in details.states/,
    );
    expect(error.details?.states).toHaveLength(15);
  });
});
