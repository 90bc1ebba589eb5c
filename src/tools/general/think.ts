/** @module `think`: a scratchpad that structures reasoning without touching anything. */
import { z } from "zod";
import { generalTool } from "./general-env.js";

export const thinkSpec = generalTool({
  name: "think",
  description:
    "Write down a step of reasoning before acting: a plan, a check of a tool's result, a list of what is still unknown. Changes nothing and fetches nothing; the thought is echoed back.",
  category: "general",
  effect: "read",
  input: z.object({ thought: z.string().min(1).max(20_000).describe("the reasoning to record") }),
  run({ thought }) {
    return { content: "Noted.", data: { thought } };
  },
});
