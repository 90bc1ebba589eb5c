/** @module `now`: the current date and time, in UTC and in a named time zone. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { generalTool } from "./general-env.js";

const input = z.object({
  timezone: z
    .string()
    .max(64)
    .optional()
    .describe('IANA time zone such as "Europe/Paris" or "America/New_York"; UTC when omitted'),
});

export const nowSpec = generalTool({
  name: "now",
  description:
    "Returns the current date and time (ISO 8601 UTC, epoch milliseconds, weekday and local time in an optional IANA time zone). Use it whenever an answer depends on today's date.",
  category: "general",
  effect: "read",
  input,
  async run({ timezone }, _context, { timeSource }) {
    const zone = timezone ?? "UTC";
    let format: Intl.DateTimeFormat;
    try {
      format = new Intl.DateTimeFormat("en-GB", {
        timeZone: zone,
        dateStyle: "full",
        timeStyle: "long",
      });
    } catch {
      throw new ToolFailure(
        "invalid_input",
        `"${zone}" is not an IANA time zone (try "Europe/Paris" or "UTC")`,
      );
    }
    const epochMs = await timeSource.now();
    const date = new Date(epochMs);
    const data = {
      iso: date.toISOString(),
      epochMs,
      timezone: zone,
      local: format.format(date),
      source: timeSource.name,
    };
    return { content: `${data.local} (${data.iso})`, data };
  },
});
