/** @module Input fields the pull request tools share, each held to GitHub's own limits. */
import { z } from "zod";
import { isGitRefName, refNameField } from "../git-inputs.js";
import { numberField, ownerField } from "../github-inputs.js";

export const pullNumberField = numberField("pull request");

/** GitHub refuses a longer title ("title is too long (maximum is 256 characters)"). */
export const pullTitleField = z.string().trim().min(1).max(256);

/** GitHub refuses a longer body ("Body is too long (maximum is 65536 characters)"). */
export const pullBodyField = z.string().max(65_536);

export const baseBranchField = refNameField(
  "the branch the changes are pulled into, in this repository, e.g. main",
);

/** `user:branch`: a GitHub login, a colon (never part of a git ref), and a branch name. */
const isOwnedBranch = (head: string) => {
  const colon = head.indexOf(":");
  return (
    colon > 0 && ownerField.safeParse(head.slice(0, colon)).success && isGitRefName(head.slice(colon + 1))
  );
};

/** A branch of this repository, or `user:branch` for a fork in the same network, as GitHub takes `head`. */
export const headBranchField = z
  .string()
  .refine(
    (head) => (head.includes(":") ? isOwnedBranch(head) : isGitRefName(head)),
    "a branch name, or user:branch for a branch of a fork (a GitHub login, ':', a git branch name)",
  )
  .describe(
    "the branch holding the changes: a branch of this repository, or user:branch for a fork in the same network",
  );

/** GitHub's list filter takes only `user:branch`; a bare branch name is not what it documents. */
export const headFilterField = z
  .string()
  .refine(
    isOwnedBranch,
    "user:branch, e.g. octocat:new-feature (the owner of the head repository, ':', a branch)",
  )
  .describe("only pull requests from this head branch, as user:branch, e.g. octocat:new-feature");
