/** @module Input fields the issue tools share, each held to GitHub's own limits before any request. */
import { z } from "zod";
import { numberField } from "../github-inputs.js";

export const issueNumberField = numberField("issue");

/** GitHub refuses a longer title: "title is too long (maximum is 256 characters)". */
export const titleField = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .describe("the issue's title, at most 256 characters");

/** GitHub refuses a longer body or comment: "Body is too long (maximum is 65536 characters)". */
export const textField = (what: string) =>
  z.string().max(65_536).describe(`${what}, Markdown, at most 65,536 characters`);

/** A GitHub login: letters, digits and single hyphens, at most 39 characters. */
export const loginField = z
  .string()
  .regex(
    /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/,
    "a GitHub login: letters, digits and single hyphens, at most 39",
  );

/** GitHub refuses a longer label name: "name is too long (maximum is 50 characters)". */
export const labelNameField = z
  .string()
  .trim()
  .min(1)
  .max(50)
  .describe("a label's name, at most 50 characters, e.g. bug");

export const labelsField = z
  .array(labelNameField)
  .min(1)
  .max(100)
  .refine((labels) => new Set(labels).size === labels.length, "each label once");

export const assigneesField = z
  .array(loginField)
  .max(10)
  .refine((logins) => new Set(logins).size === logins.length, "each login once")
  .describe("logins to assign (GitHub allows at most 10 assignees on an issue)");

export const milestoneNumberField = numberField("milestone");

/** Why an issue is closed: GitHub shows "completed" as done and "not_planned" as won't do. */
export const closeReasonField = z
  .enum(["completed", "not_planned"])
  .describe("completed: the work is done; not_planned: won't do, stale or out of scope");
