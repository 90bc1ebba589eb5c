/**
 * @module The schedules toolkit: tool calls and prompts the server runs later as their maker, kept in the
 * deployment's schedule store. Served only when the host lends that store and a way to check a scheduled
 * call (the seam it serves them with): `toolreg serve`, whose scheduler fires them.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { scheduleCancelSpec } from "./schedule-cancel.js";
import { scheduleCreateSpec } from "./schedule-create.js";
import { scheduleListSpec } from "./schedule-list.js";

export const schedulesToolkit = defineToolkit({
  id: "schedules",
  version: "1.0.0",
  package: "toolreg",
  description:
    "Run a tool call or a prompt later, once or on a cron expression; list and cancel one's own schedules.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [scheduleCreateSpec, scheduleListSpec, scheduleCancelSpec],
  bind: (_config, host) =>
    host.schedules && host.scheduleTargets
      ? { schedules: host.schedules, targets: host.scheduleTargets, now: Date.now }
      : undefined,
});
