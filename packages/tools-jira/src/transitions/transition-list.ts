/**
 * @module The transitions an issue allows now, `GET /rest/api/3/issue/{key}/transitions`: what
 * jira_list_transitions shows and what jira_transition_issue checks a transition id against.
 */
import { oneLine, type ToolContext } from "toolreg/toolkit";
import type { JiraEnv } from "../jira-env.js";
import { TransitionsShape } from "../jira-shapes.js";

export interface AvailableTransition {
  /** What jira_transition_issue takes: digits, never a status name. */
  id: string;
  name: string;
  /** The status the issue moves to. */
  to: string | null;
  toCategory: string | null;
}

export async function availableTransitions(
  key: string,
  context: ToolContext,
  env: JiraEnv,
): Promise<AvailableTransition[]> {
  const answer = await env
    .jira(context)
    .send(
      `issue ${key}'s transitions`,
      { method: "GET", path: `/rest/api/3/issue/${key}/transitions` },
      TransitionsShape,
    );
  return answer.transitions
    .filter((transition) => transition.isAvailable !== false)
    .map((transition) => ({
      id: transition.id,
      name: oneLine(transition.name, 100),
      to: transition.to?.name ? oneLine(transition.to.name, 100) : null,
      toCategory: transition.to?.statusCategory?.key ?? null,
    }));
}

/** `31 "Done" → Done`: one transition on one line. */
export function transitionLine(transition: AvailableTransition): string {
  return `${transition.id} "${transition.name}"${transition.to ? ` → ${transition.to}` : ""}`;
}
