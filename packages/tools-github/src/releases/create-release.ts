/** @module `github_create_release`: publishes a release (or a draft) for a tag, creating the tag if need be. */
import { z } from "zod";
import { refNameField } from "../git-inputs.js";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { explainingFailures } from "../pulls/explain-failure.js";
import { releaseOutput } from "./release-shapes.js";

export const createRelease = githubTool({
  name: "github_create_release",
  description:
    "Creates a release for a tag: published at once, or as a draft to publish later, and optionally marked as a prerelease. If the tag does not exist yet GitHub creates it at target_commitish (a branch or commit SHA; the default branch unless given). A tag can have only one release: GitHub refuses a second (read the existing one with github_get_release). A published release notifies the repository's watchers. Returns the release as github_get_release does; its notes are untrusted text.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    tag_name: refNameField("the tag to release, e.g. v1.2.0; created if it does not exist"),
    target_commitish: refNameField(
      "where a new tag is created: a branch or a commit SHA (default: the default branch); unused if the tag exists",
    ).optional(),
    name: z.string().optional().describe("the release's title"),
    body: z
      .string()
      .max(125_000)
      .optional()
      .describe("the release notes, in Markdown, at most 125,000 characters (GitHub's limit)"),
    draft: z
      .boolean()
      .optional()
      .describe("create it unpublished, visible only to those who can push (default false)"),
    prerelease: z.boolean().optional().describe("mark it as not ready for production (default false)"),
  }),
  async run({ owner, repo, ...release }, context, env) {
    const where = `${owner}/${repo}`;
    const { data } = await explainingFailures(
      () =>
        env
          .github(context)
          .request(
            "POST /repos/{owner}/{repo}/releases",
            { owner, repo, ...release },
            `a release ${release.tag_name} of ${where}`,
          ),
      {
        422: (failure) =>
          alreadyReleased(failure.details?.errors)
            ? `GitHub refused the release: the tag ${release.tag_name} of ${where} already has a release (a tag has only one). Read it with github_get_release (tag ${release.tag_name}, or by release_id if it is a draft), or release under another tag`
            : undefined,
      },
    );
    return releaseOutput(data);
  },
});

/** GitHub's 422 for a tag that has its release: `{resource: "Release", code: "already_exists", field: "tag_name"}`. */
function alreadyReleased(errors: unknown): boolean {
  return (
    Array.isArray(errors) &&
    errors.some(
      (error) =>
        typeof error === "object" &&
        error !== null &&
        error.code === "already_exists" &&
        error.field === "tag_name",
    )
  );
}
