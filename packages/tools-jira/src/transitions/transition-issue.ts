/**
 * @module `jira_transition_issue`: moves an issue through its workflow by a transition id. Jira's
 * `POST /rest/api/3/issue/{key}/transitions` takes an id, and which ids apply depends on the issue's
 * workflow and current status; so the issue's available transitions are read first, and an id not among
 * them is refused as `precondition_failed` naming the ones that are, before anything changes. The input
 * cannot be a status name: a name is not digits.
 */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { markdownToAdf } from "../adf/markdown-to-adf.js";
import { issueUrl } from "../issues/issue-output.js";
import { jiraTool } from "../jira-env.js";
import { issueKeyField, markdownField } from "../jira-inputs.js";
import { type AvailableTransition, availableTransitions, transitionLine } from "./transition-list.js";

export const transitionIssue = jiraTool({
  name: "jira_transition_issue",
  description:
    "Moves a Jira issue to another status by a transition id from jira_list_transitions (e.g. 31), never a status name; optionally with a markdown comment. An id the issue does not allow now is refused, listing the ones it does. Use jira_update_issue for other fields.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["read:jira-work", "write:jira-work"],
  input: z.object({
    key: issueKeyField,
    transitionId: z
      .string()
      .regex(
        /^\d{1,10}$/,
        "a transition id is digits, e.g. 31, from jira_list_transitions; not a status name",
      )
      .describe("the transition's id from jira_list_transitions, e.g. 31"),
    comment: markdownField("a comment added with the transition").optional(),
  }),
  async run({ key, transitionId, comment }, context, env) {
    const available = await availableTransitions(key, context, env);
    const chosen = available.find((transition) => transition.id === transitionId);
    if (!chosen) {
      const listed = available.length > 0 ? available.map(transitionLine).join("; ") : "none";
      throw new ToolFailure(
        "precondition_failed",
        `${key} does not allow transition ${transitionId} now; the transitions it allows (id "name" → status) are: ${listed}`,
        { retryable: false, details: { key, transitionId, available } },
      );
    }
    await env
      .jira(context)
      .sendExpectingNothing(`transition ${transitionId} of issue ${key}`, {
        method: "POST",
        path: `/rest/api/3/issue/${key}/transitions`,
        json: {
          transition: { id: transitionId },
          ...(comment === undefined
            ? {}
            : { update: { comment: [{ add: { body: markdownToAdf(comment) } }] } }),
        },
      })
      .catch((error: unknown) => {
        throw refusedTransition(error, key, chosen) ?? error;
      });
    const url = issueUrl(env, key);
    return {
      content: `Moved ${key} by "${chosen.name}"${chosen.to ? ` to ${chosen.to}` : ""}${url ? `: ${url}` : ""}`,
      data: { key, transitionId, transition: chosen.name, status: chosen.to, url },
    };
  },
});

/**
 * Jira's 400 to an available transition: its screen asks for a field (a resolution, say) or a validator
 * refused, and this tool sends no fields; no other input would do, so a person makes it in Jira.
 */
function refusedTransition(
  error: unknown,
  key: string,
  transition: AvailableTransition,
): ToolFailure | undefined {
  if (!ToolFailure.isInstance(error) || error.details?.status !== 400) return undefined;
  const said = typeof error.details.jira === "string" ? ` (Jira said: ${error.details.jira})` : "";
  return new ToolFailure(
    "precondition_failed",
    `Jira refused transition ${transition.id} "${transition.name}" of ${key}${said}: it asks for fields on its screen or a validator's condition, which this tool cannot give, so a person must make this transition in Jira (if the issue changed meanwhile, list its transitions again with jira_list_transitions)`,
    { retryable: false, details: { key, transitionId: transition.id, status: 400 } },
  );
}
