import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failureOf, type LinearHarness, okData, startLinearHarness } from "../fake/linear-harness.js";
import { ENG, OPS, TEST_KEY } from "../fake/linear-world.js";

let linear: LinearHarness;
beforeAll(async () => {
  linear = await startLinearHarness();
});
afterAll(() => linear.close());

describe("linear_list_teams", () => {
  it("POSTs the teams query with the key egress injected bare, and lists each team's id, key and name", async () => {
    const envelope = await linear.call("linear_list_teams", {});
    const data = okData<{ teams: { id: string; key: string; name: string }[]; complete: boolean }>(envelope);
    const sent = linear.fake.operations().at(-1);
    expect(sent).toMatchObject({
      name: "LinearTeams",
      kind: "query",
      variables: { first: 50 },
      authorization: TEST_KEY,
    });
    expect(data.teams.map((team) => [team.id, team.key])).toEqual([
      [ENG, "ENG"],
      [OPS, "OPS"],
    ]);
    expect(data.complete).toBe(true);
    expect(envelope.ok && envelope.content).toMatch(/Linear: 2 teams\.\nENG Engineering — id 5a3c1e9b/);
    expect(envelope.ok && envelope.provenance).toEqual({ source: linear.fake.endpoint, trusted: false });
  });

  it("follows pages with first/after to the limit asked, and says the limit stopped it", async () => {
    const before = linear.fake.operations().length;
    const envelope = await linear.call("linear_list_teams", { limit: 1 });
    const data = okData<{ teams: unknown[]; stoppedBy: string }>(envelope);
    const sent = linear.fake.operations().slice(before);
    expect(sent.map((operation) => operation.variables)).toEqual([{ first: 1 }]);
    expect(data.teams).toHaveLength(1);
    expect(data.stoppedBy).toBe("limit");
    expect(envelope.ok && envelope.content).toMatch(
      /the first 1 teams; there are more: the limit of 1 stopped/,
    );
  });

  it("stops after 10 requests when Linear keeps saying another page follows, and says the page bound stopped it", async () => {
    const before = linear.fake.operations().length;
    linear.fake.world.endlessPages = true;
    try {
      const envelope = await linear.call("linear_list_teams", { limit: 250 });
      const data = okData<{ teams: unknown[]; stoppedBy: string }>(envelope);
      expect(linear.fake.operations().length - before).toBe(10);
      expect(data.stoppedBy).toBe("pages");
      expect(envelope.ok && envelope.content).toMatch(/the bound of 10 requests per call stopped the list/);
    } finally {
      linear.fake.world.endlessPages = false;
    }
  });

  it("refuses an unknown field and a limit out of bounds with nothing sent", async () => {
    const before = linear.fake.requests.length;
    for (const input of [{ limit: 0 }, { limit: 251 }, { limit: 2.5 }, { team: "ENG" }]) {
      expect(failureOf(await linear.call("linear_list_teams", input)).code).toBe("invalid_input");
    }
    expect(linear.fake.requests.length).toBe(before);
  });

  it("reports a key Linear refuses as auth_required naming the credential", async () => {
    const error = failureOf(await linear.call("linear_list_teams", {}, { key: "Bearer lin_api_wrong" }));
    expect(error.code).toBe("auth_required");
    expect(error.message).toContain('"linear"');
    expect(linear.fake.operations().at(-1)?.authorization).toBe("Bearer lin_api_wrong");
  });
});
