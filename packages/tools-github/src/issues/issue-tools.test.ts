import { describe, expect, it } from "vitest";
import { githubToolkit } from "../toolkit.js";
import { issueTools } from "./index.js";

const READS = [
  "github_get_issue",
  "github_list_issues",
  "github_search_issues",
  "github_list_labels",
  "github_list_milestones",
];
const WRITES = [
  "github_create_issue",
  "github_update_issue",
  "github_close_issue",
  "github_reopen_issue",
  "github_comment",
  "github_add_labels",
  "github_remove_label",
];

describe("the issue tools as declared", () => {
  it("are the twelve the toolkit lists, vendor-prefixed, in the project category, io-bound, needing the repo scope", () => {
    expect(issueTools.map((tool) => tool.name).sort()).toEqual([...READS, ...WRITES].sort());
    for (const tool of issueTools) {
      expect(tool, tool.name).toMatchObject({ category: "project", cost: "io", oauthScopes: ["repo"] });
    }
  });

  it("read with effect read; write with external-write, so they park for approval and carry an idempotency key", () => {
    const declared = new Map(githubToolkit.declarations().map((tool) => [tool.name, tool]));
    for (const name of READS)
      expect(declared.get(name), name).toMatchObject({ effect: "read", approval: "never" });
    for (const name of WRITES) {
      expect(declared.get(name), name).toMatchObject({
        effect: "external-write",
        approval: "always",
        idempotencyKey: true,
      });
      // GitHub takes no idempotency key, so a lost outcome must not be retried as if it deduplicated.
      expect(declared.get(name)?.upstreamDeduplicates ?? false, name).toBe(false);
    }
  });

  it("say in their descriptions that what people wrote is untrusted, where they return it", () => {
    for (const tool of issueTools.filter((each) => each.name !== "github_comment")) {
      expect(tool.description, tool.name).toMatch(/untrusted/);
    }
  });
});
