import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, type LinearHarness, okData, startLinearHarness } from "../fake/linear-harness.js";
import { ENG, ENG_IN_PROGRESS } from "../fake/linear-world.js";

let linear: LinearHarness;
beforeAll(async () => {
  linear = await startLinearHarness();
});
afterAll(() => linear.close());

describe("linear_list_states", () => {
  it("reads the team's states through team(id).states, in the team's order, with their ids", async () => {
    const envelope = await linear.call("linear_list_states", { teamId: ENG.toUpperCase() });
    const data = okData<{ team: { key: string }; states: { id: string; name: string; type: string }[] }>(
      envelope,
    );
    expect(linear.fake.operations().at(-1)).toMatchObject({
      name: "LinearTeamStates",
      variables: { teamId: ENG, first: 50 },
    });
    expect(data.team.key).toBe("ENG");
    expect(data.states.map((state) => `${state.name}:${state.type}`)).toEqual([
      "Backlog:backlog",
      "Todo:unstarted",
      "In Progress:started",
      "Done:completed",
      "Canceled:canceled",
    ]);
    expect(envelope.ok && envelope.content).toContain(`In Progress (started) — id ${ENG_IN_PROGRESS}`);
  });

  it("reads every state and sorts by position before the limit cuts, saying the limit stopped the list", async () => {
    // The fake pages states in creation order (Backlog created last): a cut before sorting would lose Backlog.
    const before = linear.fake.operations().length;
    const data = okData<{ states: { name: string }[]; stoppedBy: string }>(
      await linear.call("linear_list_states", { teamId: ENG, limit: 2 }),
    );
    expect(data.states.map((state) => state.name)).toEqual(["Backlog", "Todo"]);
    expect(data.stoppedBy).toBe("limit");
    expect(
      linear.fake
        .operations()
        .slice(before)
        .map((operation) => operation.variables.first),
    ).toEqual([50]);
  });

  it("says a team Linear does not know is not found, pointing at linear_list_teams", async () => {
    const error = failureOf(
      await linear.call("linear_list_states", { teamId: "00000000-0000-4000-8000-000000000000" }),
    );
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/Could not find referenced Team.*linear_list_teams/);
    expect(error.details).toMatchObject({
      linearCode: "INPUT_ERROR",
      linearType: "invalid input",
      status: 200,
    });
  });

  it("refuses a team key or anything but a UUID before sending", async () => {
    const before = linear.fake.requests.length;
    for (const teamId of ["ENG", "5a3c1e9b-7f24-4d6a-9c1e-2b8f0d4a6e1", "../teams", `${ENG}\n`]) {
      expect(failureOf(await linear.call("linear_list_states", { teamId })).code).toBe("invalid_input");
    }
    expect(linear.fake.requests.length).toBe(before);
  });
});
