/**
 * @module A team's workflow states, as linear_list_states lists them and as the writes check a `stateId`
 * against before sending it: in Linear a state is a field of the issue, one of its team's states, so
 * moving an issue is an update, and a state of another team is refused here, by name, before any write.
 */
import { oneLine, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import type { LinearCall } from "../linear-client.js";
import { connectionOf, type ListResult, walkConnection } from "../linear-pages.js";

const TEAM_STATES_QUERY = `query LinearTeamStates($teamId: String!, $first: Int!, $after: String) {
  team(id: $teamId) {
    id key name
    states(first: $first, after: $after) { nodes { id name type position } pageInfo { hasNextPage endCursor } }
  }
}`;

const WorkflowState = z.object({ id: z.string(), name: z.string(), type: z.string(), position: z.number() });
type WorkflowState = z.output<typeof WorkflowState>;

const Team = z.object({ id: z.string(), key: z.string(), name: z.string() });
type TeamRef = z.output<typeof Team>;

const TeamStatesAnswer = z.object({ team: Team.extend({ states: connectionOf(WorkflowState) }) });

/**
 * A team has a handful of states; a bound keeps a strange workspace from costing many requests. All are read
 * (Linear pages them in its own order, not by position), so that sorting by position sees every one.
 */
const MAX_STATES = 250;
/** States a refusal's message names; its details carry them all. */
const STATES_NAMED = 12;

interface TeamStates extends ListResult<WorkflowState> {
  team: TeamRef;
}

/** The team's states sorted by position: all of them, unless more than MAX_STATES (then `stoppedBy`). */
export async function teamStates(linear: LinearCall, teamId: string): Promise<TeamStates> {
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
  }, MAX_STATES);
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
    .slice(0, STATES_NAMED)
    .map((candidate) => `${candidate.name} (${candidate.type}) ${candidate.id}`)
    .join("; ");
  const others = states.items.length - STATES_NAMED;
  throw new ToolFailure(
    "precondition_failed",
    `the state ${stateId} is not a workflow state of team ${states.team.key} (${states.team.name}), so nothing was sent; its states are: ${choices || "none listed"}${others > 0 ? ` and ${others} more (all in details.states, or linear_list_states)` : ""}`,
    {
      retryable: false,
      details: {
        teamId: states.team.id,
        states: states.items.map(({ id, name, type }) => ({ id, name, type })),
      },
    },
  );
}
