/**
 * @module A team's workflow states, as linear_list_states lists them and as the writes check a `stateId`
 * against before sending it: in Linear a state is a field of the issue, one of its team's states, so
 * moving an issue is an update, and a state of another team is refused here, by name, before any write.
 */
import { oneLine, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import type { LinearCall } from "../linear-client.js";
import { connectionOf, type ListResult, walkConnection } from "../linear-pages.js";

export const TEAM_STATES_QUERY = `query LinearTeamStates($teamId: String!, $first: Int!, $after: String) {
  team(id: $teamId) {
    id key name
    states(first: $first, after: $after) { nodes { id name type position } pageInfo { hasNextPage endCursor } }
  }
}`;

const WorkflowState = z.object({ id: z.string(), name: z.string(), type: z.string(), position: z.number() });
export type WorkflowState = z.output<typeof WorkflowState>;

const Team = z.object({ id: z.string(), key: z.string(), name: z.string() });
export type TeamRef = z.output<typeof Team>;

const TeamStatesAnswer = z.object({ team: Team.extend({ states: connectionOf(WorkflowState) }) });

/** A team has a handful of states; a bound keeps a strange workspace from costing many requests. */
export const MAX_STATES = 250;

export interface TeamStates extends ListResult<WorkflowState> {
  team: TeamRef;
}

export async function teamStates(
  linear: LinearCall,
  teamId: string,
  maxItems = MAX_STATES,
): Promise<TeamStates> {
  let team: TeamRef | undefined;
  const listed = await walkConnection(async (first, after) => {
    const answer = await linear.request(
      `the workflow states of team ${teamId}`,
      TEAM_STATES_QUERY,
      { teamId, first, ...(after === undefined ? {} : { after }) },
      TeamStatesAnswer,
    );
    const { states, ...found } = answer.team;
    team ??= found;
    return states;
  }, maxItems);
  // walkConnection asks at least once, and the first answer names the team.
  if (team === undefined) throw new ToolFailure("internal", `Linear's answer named no team for ${teamId}`);
  const items = listed.items
    .map((state) => ({ ...state, name: oneLine(state.name, 80), type: oneLine(state.type, 40) }))
    .sort((a, b) => a.position - b.position);
  return { ...listed, items, team: { ...team, key: oneLine(team.key, 20), name: oneLine(team.name, 80) } };
}

/** Refuses a `stateId` that is not one of the team's states, naming every state a model may choose. */
export function assertTeamState(states: TeamStates, stateId: string): WorkflowState {
  const state = states.items.find((candidate) => candidate.id === stateId);
  if (state) return state;
  const choices = states.items
    .map((candidate) => `${candidate.name} (${candidate.type}) ${candidate.id}`)
    .join("; ");
  throw new ToolFailure(
    "precondition_failed",
    `the state ${stateId} is not a workflow state of team ${states.team.key} (${states.team.name}), so nothing was sent; its states are: ${choices || "none listed"}`,
    {
      retryable: false,
      details: {
        teamId: states.team.id,
        states: states.items.map(({ id, name, type }) => ({ id, name, type })),
      },
    },
  );
}
