/**
 * @module `linear_list_states`: a team's workflow states. In Linear a state is a field of the issue, so these
 * ids are what linear_update_issue (and linear_create_issue) take as `stateId`; there is no transition tool.
 */
import { z } from "zod";
import { linearTool } from "../linear-env.js";
import { limitField, teamIdField } from "../linear-inputs.js";
import { listNote } from "../linear-pages.js";
import { teamStates } from "./team-states.js";

export const listStates = linearTool({
  name: "linear_list_states",
  description:
    "Lists one Linear team's workflow states (Backlog, Todo, In Progress, Done, Canceled, or the team's own), each with its id, name and type (backlog, unstarted, started, completed, canceled, triage), in the team's order. In Linear a state is a field of an issue, not a transition: to move an issue, pass one of these ids as stateId to linear_update_issue. Takes the team's id from linear_list_teams.",
  category: "project",
  effect: "read",
  cost: "io",
  input: z.strictObject({ teamId: teamIdField, limit: limitField }),
  async run({ teamId, limit }, context, env) {
    const linear = env.linear(context);
    const max = Math.min(limit ?? env.maxItems, env.maxItems);
    // Every state is read and sorted by position before the limit cuts, so a limit keeps the team's first states.
    const all = await teamStates(linear, teamId);
    const listed = {
      ...all,
      items: all.items.slice(0, max),
      stoppedBy: all.items.length > max ? ("limit" as const) : all.stoppedBy,
    };
    const states = listed.items.map(({ id, name, type }) => ({ id, name, type }));
    return {
      content: [
        `Linear team ${listed.team.key} (${listed.team.name}): ${listNote(listed, "workflow states", max)}.`,
        ...states.map((state) => `${state.name} (${state.type}) — id ${state.id}`),
      ].join("\n"),
      data: {
        team: listed.team,
        states,
        complete: listed.stoppedBy === undefined,
        ...(listed.stoppedBy ? { stoppedBy: listed.stoppedBy } : {}),
      },
      provenance: { source: linear.endpoint, trusted: false },
    };
  },
});
