import { describe, expect, it } from "vitest";
import { releaseTools } from "../releases/index.js";
import { githubToolkit } from "../toolkit.js";
import { pullTools } from "./index.js";

/** Each tool of the pull request and release areas, and the effect the specification gives it. */
const EFFECTS: Record<string, "read" | "external-write" | "destructive"> = {
  github_list_pull_requests: "read",
  github_get_pull_request: "read",
  github_search_pull_requests: "read",
  github_create_pull_request: "external-write",
  github_update_pull_request: "external-write",
  github_review_pull_request: "external-write",
  github_close_pull_request: "external-write",
  github_merge_pull_request: "destructive",
  github_list_releases: "read",
  github_get_release: "read",
  github_create_release: "external-write",
};

/** The tools that return text someone wrote (a body, release notes, titles). */
const RETURN_WRITTEN_TEXT = Object.keys(EFFECTS).filter(
  (name) => name !== "github_review_pull_request" && name !== "github_merge_pull_request",
);

describe("the pull request and release tools as declared", () => {
  const areaTools = [...pullTools, ...releaseTools];
  const declared = new Map(githubToolkit.declarations().map((tool) => [tool.name, tool]));

  it("are the eleven the specification lists, in the project category, io-bound, needing the repo scope", () => {
    expect(areaTools.map((tool) => tool.name).sort()).toEqual(Object.keys(EFFECTS).sort());
    for (const tool of areaTools) {
      expect(tool, tool.name).toMatchObject({ category: "project", cost: "io", oauthScopes: ["repo"] });
      expect(declared.has(tool.name), tool.name).toBe(true);
    }
  });

  it("have the effect the specification gives them, and writes park for approval with an idempotency key", () => {
    for (const [name, effect] of Object.entries(EFFECTS)) {
      const tool = declared.get(name);
      expect(tool?.effect, name).toBe(effect);
      expect(tool?.approval, name).toBe(effect === "read" ? "never" : "always");
      expect(tool?.idempotencyKey, name).toBe(effect !== "read");
      // GitHub takes no idempotency key: a lost outcome must not be retried as if it deduplicated.
      expect(tool?.upstreamDeduplicates, name).toBe(false);
    }
  });

  it("say in their descriptions that the text they return is untrusted", () => {
    for (const name of RETURN_WRITTEN_TEXT)
      expect(declared.get(name)?.description, name).toMatch(/untrusted/);
  });
});
