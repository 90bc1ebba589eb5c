/** @module Input fields the Actions tools share: a workflow (by id or file name) and a run id. */
import { z } from "zod";

/** GitHub takes a workflow's numeric id or its file name in .github/workflows (not a path). */
export const workflowField = z
  .union([
    z.int().min(1).max(Number.MAX_SAFE_INTEGER),
    z
      .string()
      .max(255)
      .regex(
        /^[A-Za-z0-9._-]+\.ya?ml$/,
        "a workflow file name such as ci.yml (no directory), or its numeric id",
      ),
  ])
  .describe("the workflow: its file name in .github/workflows (e.g. ci.yml) or its numeric id");

export const runIdField = z
  .int()
  .min(1)
  .max(Number.MAX_SAFE_INTEGER)
  .describe("the workflow run's id (the number in its URL, .../actions/runs/ID; not its run number)");
