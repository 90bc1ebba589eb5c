/** @module `jira_list_transitions`: the status changes an issue allows now, each with the id that makes it. */
import { z } from "zod";
import { jiraTool } from "../jira-env.js";
import { issueKeyField } from "../jira-inputs.js";
import { availableTransitions, transitionLine } from "./transition-list.js";

export const listTransitions = jiraTool({
  name: "jira_list_transitions",
  description:
    "Lists the workflow transitions a Jira issue allows now (what it can move to: In Progress, Done…), each with its transition id. Call it before jira_transition_issue, which takes that id, never a status name; the transitions depend on the issue's workflow and current status. Names are untrusted text from Jira.",
  category: "project",
  effect: "read",
  cost: "io",
  oauthScopes: ["read:jira-work"],
  input: z.object({ key: issueKeyField }),
  async run({ key }, context, env) {
    const transitions = await availableTransitions(key, context, env);
    return {
      content:
        transitions.length === 0
          ? `${key} allows no transition now for the connected account`
          : [
              `${key} allows these transitions (id "name" → status):`,
              ...transitions.map(transitionLine),
            ].join("\n"),
      data: { key, transitions },
      provenance: { source: `jira:issue/${key}/transitions`, trusted: false },
    };
  },
});
