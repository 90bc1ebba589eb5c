import { describe, expect, it } from "vitest";
import { callerOctokits, graphqlReadsOnly } from "./caller-octokits.js";

describe("callerOctokits", () => {
  const baseUrl = "https://api.github.com";

  it("gives a caller the same Octokits each time and another caller its own", () => {
    const octokits = callerOctokits({ baseUrl });
    const alice = octokits.get({ tenantId: "t1", principalId: "alice" });
    expect(octokits.get({ tenantId: "t1", principalId: "alice" })).toBe(alice);
    expect(octokits.get({ tenantId: "t2", principalId: "alice" })).not.toBe(alice);
    expect(alice.queries).not.toBe(alice.octokit);
  });

  it("keeps at most maxCallers, dropping the least recently used", () => {
    const octokits = callerOctokits({ baseUrl, maxCallers: 2 });
    const caller = (principalId: string) => octokits.get({ tenantId: "t1", principalId });
    const a = caller("a");
    const b = caller("b");
    expect(caller("a")).toBe(a);
    caller("c");
    expect(octokits.size).toBe(2);
    expect(caller("a")).toBe(a);
    expect(caller("b")).not.toBe(b);
    expect(octokits.size).toBe(2);
  });
});

describe("graphqlReadsOnly", () => {
  it("tells a query from a mutation, erring toward a mutation", () => {
    expect(
      graphqlReadsOnly("query Owner($login: String!) { repositoryOwner(login: $login) { login } }"),
    ).toBe(true);
    expect(graphqlReadsOnly("{ viewer { login } }")).toBe(true);
    expect(graphqlReadsOnly("fragment F on User { login }\nquery { viewer { ...F } }")).toBe(true);
    expect(
      graphqlReadsOnly(
        "mutation Add($id: ID!) { deleteProjectV2Item(input: { itemId: $id }) { deletedItemId } }",
      ),
    ).toBe(false);
    expect(
      graphqlReadsOnly(
        "fragment F on ProjectV2Item { id }\nmutation { addProjectV2ItemById { item { ...F } } }",
      ),
    ).toBe(false);
    expect(graphqlReadsOnly("query { viewer { login } } # not a mutation")).toBe(false);
  });
});
