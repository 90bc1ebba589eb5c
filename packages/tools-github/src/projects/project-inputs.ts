/**
 * @module Input fields the project tools share. A project is named as a model sees it in its URL — an
 * owner's login and a number (github.com/orgs/octo-org/projects/5) — and an item by the issue or pull
 * request it holds; the tools look up every node id themselves, so no model ever types one.
 */
import type { z } from "zod";
import { numberField, ownerField, repoInput } from "../github-inputs.js";

export const projectOwnerField = ownerField.describe(
  "the organisation or user that owns the project, e.g. octo-org (github.com/orgs/octo-org/projects/5)",
);

export const projectNumberField = numberField("project").describe(
  "the project's number, from its URL (github.com/orgs/octo-org/projects/5 is 5)",
);

/** A project's item, named by the project and by the issue or pull request it holds. */
export const projectItemInput = {
  project_owner: projectOwnerField,
  project_number: projectNumberField,
  ...repoInput,
  issue_number: numberField("issue or pull request"),
};

export type ProjectItemInput = z.infer<z.ZodObject<typeof projectItemInput>>;
