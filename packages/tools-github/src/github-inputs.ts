/**
 * @module Input fields the GitHub tools share. Names are checked to GitHub's own rules before any request,
 * so a hostile value (`../`, a query string, a second path) is refused here rather than sent.
 */
import { z } from "zod";

export const ownerField = z
  .string()
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/,
    "a GitHub user or organisation login: letters, digits and hyphens, at most 39",
  )
  .describe("the account that owns the repository, e.g. octocat");

export const repoField = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, "a repository name: letters, digits, '.', '_' and '-', at most 100")
  .refine((name) => name !== "." && name !== "..", "a repository name cannot be . or ..")
  .describe("the repository's name without the owner, e.g. hello-world");

export const numberField = (what: string) => z.int().min(1).max(2_147_483_647).describe(`the ${what} number`);

/** How many items a list tool returns; the toolkit's configured maximum caps it. */
export const limitField = z
  .int()
  .min(1)
  .max(1000)
  .optional()
  .describe("the most items to return (default and cap: the deployment's maxItems, 100 unless configured)");

export const repoInput = { owner: ownerField, repo: repoField };
