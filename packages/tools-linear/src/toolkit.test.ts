import { createToolkitHost, type ToolkitEgressRequest, type ToolkitHost } from "toolreg/toolkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CREDENTIAL_REF, type LinearHarness, startLinearHarness } from "./fake/linear-harness.js";
import { ENG, TEST_KEY } from "./fake/linear-world.js";
import { LINEAR_GRAPHQL_URL } from "./linear-config.js";
import { linearToolkit } from "./toolkit.js";

const READS = ["linear_search_issues", "linear_get_issue", "linear_list_teams", "linear_list_states"];
const WRITES = ["linear_create_issue", "linear_update_issue", "linear_comment"];

describe("the Linear toolkit as data", () => {
  it("declares its seven tools, vendor-prefixed, in project, with no network and no credential", () => {
    const tools = linearToolkit.declarations();
    expect(tools.map((tool) => tool.name)).toEqual([...READS, ...WRITES]);
    for (const tool of tools) {
      expect(tool.category).toBe("project");
      expect(tool.provenance).toBe("package:@toolreg/tools-linear");
    }
  });

  it("gates each write for approval under the seam's key; the creates claim Linear's deduplication by id", () => {
    for (const tool of linearToolkit.declarations()) {
      const writes = WRITES.includes(tool.name);
      expect(tool.effect, tool.name).toBe(writes ? "external-write" : "read");
      expect(tool.approval, tool.name).toBe(writes ? "always" : "never");
      expect(tool.idempotencyKey, tool.name).toBe(writes);
      expect(tool.upstreamDeduplicates, tool.name).toBe(
        ["linear_create_issue", "linear_comment"].includes(tool.name),
      );
      expect(tool.overrides, tool.name).toEqual([]);
    }
  });

  it("triages the package with one directed wildcard row, and nothing as publishing", () => {
    expect(linearToolkit.triage?.publishing ?? []).toEqual([]);
    expect(linearToolkit.triage?.directed).toEqual([
      {
        tool: "@toolreg/tools-linear/*",
        package: "@toolreg/tools-linear",
        why: expect.stringMatching(/seat by seat/),
      },
    ]);
  });

  it("declares an API key only, for the Authorization header: no scheme and no OAuth to wait on", () => {
    expect(linearToolkit.auth).toEqual({ kind: "token", header: "authorization" });
  });

  it("says a state is a field, and names the sibling tool, in the descriptions that move an issue", () => {
    const described = Object.fromEntries(
      linearToolkit.declarations().map((tool) => [tool.name, tool.description]),
    );
    expect(described.linear_update_issue).toMatch(/state is a field, not a transition/);
    expect(described.linear_update_issue).toMatch(/linear_list_states/);
    expect(described.linear_list_states).toMatch(/a state is a field/);
  });
});

describe("the Linear toolkit's configuration", () => {
  it("defaults to Linear's GraphQL endpoint, the credential named linear and 50 items", () => {
    expect(linearToolkit.parseConfig({})).toEqual({
      credentialRef: "linear",
      endpoint: LINEAR_GRAPHQL_URL,
      maxItems: 50,
    });
    expect(linearToolkit.hosts).toEqual(["api.linear.app"]);
  });

  it("names each bad field, and takes no key typed into the file", () => {
    expect(() => linearToolkit.parseConfig({ maxItems: 0 })).toThrow(/maxItems/);
    expect(() => linearToolkit.parseConfig({ maxItems: 251 })).toThrow(/maxItems/);
    expect(() => linearToolkit.parseConfig({ endpoint: "ftp://api.linear.app/graphql" })).toThrow(/endpoint/);
    expect(() => linearToolkit.parseConfig({ endpoint: "https://u:p@api.linear.app/graphql" })).toThrow(
      /endpoint/,
    );
    expect(() => linearToolkit.parseConfig({ apiKey: "lin_api_x" })).toThrow(/apiKey/);
  });

  it("asks its host for egress to the endpoint's host alone, with the key injected bare", async () => {
    const host = createToolkitHost();
    const asked: ToolkitEgressRequest[] = [];
    const spying: ToolkitHost = {
      ...host,
      egress(request = {}) {
        asked.push(request);
        return host.egress(request);
      },
    };
    const tools = await linearToolkit.build(
      { endpoint: "https://linear.example.test/graphql", credentialRef: "tenant-linear" },
      spying,
      { exclude: WRITES },
    );
    await host.close();
    expect(tools.map((tool) => tool.name)).toEqual(READS);
    expect(asked).toEqual([
      {
        hosts: ["linear.example.test"],
        credential: { header: "authorization", credentialRef: "tenant-linear" },
      },
    ]);
  });
});

describe("a missing API key", () => {
  let linear: LinearHarness;
  beforeAll(async () => {
    linear = await startLinearHarness();
  });
  afterAll(() => linear.close());

  it("sends a stored key bare in Authorization, with no Bearer before it", async () => {
    await linear.call("linear_list_teams", {});
    expect(linear.fake.operations().at(-1)?.authorization).toBe(TEST_KEY);
  });

  it.each([
    ["linear_search_issues", { query: "safari" }],
    ["linear_get_issue", { issue: "ENG-1" }],
    ["linear_list_teams", {}],
    ["linear_list_states", { teamId: ENG }],
    ["linear_create_issue", { teamId: ENG, title: "t" }],
    ["linear_update_issue", { issue: "ENG-1", priority: 1 }],
    ["linear_comment", { issue: "ENG-1", body: "b" }],
  ])(
    "fails %s with auth_required naming the credential, sends nothing, and offers no consent",
    async (name, input) => {
      const before = linear.fake.requests.length;
      const envelope = await linear.callApproved(name, input, { key: null });
      expect(envelope.ok).toBe(false);
      if (envelope.ok) return;
      expect(envelope.error.code).toBe("auth_required");
      expect(envelope.error.message).toContain(`"${CREDENTIAL_REF}"`);
      expect(envelope.error.details).toMatchObject({ credentialRef: CREDENTIAL_REF, provider: "linear" });
      // Token only: the remedy is an operator's, never a user sent to a consent page.
      expect(envelope.error.message).toMatch(/an operator must store a token/);
      expect(JSON.stringify(envelope.error)).not.toMatch(/authorizationUrl|oauth|the user is asked/i);
      expect(linear.fake.requests).toHaveLength(before);
    },
  );
});
