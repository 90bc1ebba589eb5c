/**
 * @module The fake's root resolvers over a LinearWorld. graphql-js executes each query against Linear's
 * published schema, so every answer has the schema's shape and a field Linear lacks fails validation
 * before it gets here. Errors take Linear's shape: a missing entity is "Entity not found: <Type>" with
 * `extensions { type: "invalid input", code: "INPUT_ERROR", userPresentableMessage: "Could not find referenced
 * <Type>." }` beside `data: null`. Linear's docs publish no such body: it is from secondary sources, public
 * client test fixtures for Linear; @linear/sdk's error.ts names the types. Linear publishes no wording for a
 * create whose client-given id is taken: the fake refuses it in the same input-error shape with words of its
 * own, and the tools read none of them. Orders: a team's states come in creation order (Linear documents
 * createdAt as the default order, not position); comments come sorted by the `orderBy` asked, ascending (the
 * fake's choice: Linear documents no direction, and get_issue reads both ends so as not to depend on it).
 * `world.endlessPages` makes every connection say another page follows, as a bound test needs.
 */
import { GraphQLError } from "graphql";
import type { FakeComment, FakeIssue, FakeState, FakeTeam, LinearWorld } from "./linear-world.js";

const PRIORITY_LABELS = ["No priority", "Urgent", "High", "Medium", "Low"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function inputError(message: string, presentable: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: {
      type: "invalid input",
      code: "INPUT_ERROR",
      userPresentableMessage: presentable,
    },
  });
}

function notFound(type: string): GraphQLError {
  return inputError(`Entity not found: ${type}`, `Could not find referenced ${type}.`);
}

interface PageArgs {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** A Relay connection over `items`, cursors being the items' ids; Linear's default page is 50. */
function connection<T extends { id: string }, N>(
  items: readonly T[],
  args: PageArgs,
  node: (item: T) => N,
  endless = false,
) {
  let start = 0;
  let end = items.length;
  if (args.after) start = items.findIndex((item) => item.id === args.after) + 1;
  if (args.before)
    end = Math.max(
      0,
      items.findIndex((item) => item.id === args.before),
    );
  if (start === 0 && args.after) throw inputError("Invalid cursor", "The pagination cursor is not valid.");
  if (args.last != null) start = Math.max(start, end - args.last);
  else end = Math.min(end, start + (args.first ?? 50));
  const page = items.slice(start, end);
  return {
    nodes: page.map(node),
    edges: page.map((item) => ({ cursor: item.id, node: node(item) })),
    pageInfo: {
      hasNextPage: endless || end < items.length,
      hasPreviousPage: start > 0,
      startCursor: page[0]?.id ?? null,
      // Endless: past the last item the cursor stays on it, so a client can always ask again.
      endCursor: page.at(-1)?.id ?? (endless ? (items.at(-1)?.id ?? null) : null),
    },
  };
}

export function linearRoot(world: LinearWorld) {
  const page = <T extends { id: string }, N>(items: readonly T[], args: PageArgs, node: (item: T) => N) =>
    connection(items, args, node, world.endlessPages === true);
  const teamOf = (id: string) => world.teams.find((team) => team.id === id);
  const identifier = (issue: FakeIssue) => `${teamOf(issue.teamId)?.key}-${issue.number}`;
  const teamStates = (teamId: string) =>
    world.states.filter((state) => state.teamId === teamId).sort((a, b) => a.position - b.position);

  const stateNode = (state: FakeState) => ({
    ...state,
    color: "#95a2b3",
    team: () => teamNode(teamOf(state.teamId)!),
  });
  const teamNode = (team: FakeTeam) => ({
    ...team,
    displayName: team.name,
    states: (args: PageArgs) =>
      page(
        world.states.filter((state) => state.teamId === team.id),
        args,
        stateNode,
      ),
  });
  const userNode = (id: string | null) => {
    const user = world.users.find((candidate) => candidate.id === id);
    return user ? { ...user, url: `https://linear.app/acme/profiles/${user.displayName}` } : null;
  };
  const commentNode = (comment: FakeComment) => ({
    ...comment,
    url: `https://linear.app/acme/issue/${identifier(issueById(comment.issueId))}#comment-${comment.id.slice(0, 8)}`,
    updatedAt: comment.createdAt,
    user: () => userNode(comment.userId),
    issue: () => issueNode(issueById(comment.issueId)),
  });
  const issueNode = (issue: FakeIssue) => ({
    ...issue,
    identifier: identifier(issue),
    url: `https://linear.app/acme/issue/${identifier(issue)}/${issue.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
    priorityLabel: PRIORITY_LABELS[issue.priority] ?? "No priority",
    state: () => stateNode(world.states.find((state) => state.id === issue.stateId)!),
    team: () => teamNode(teamOf(issue.teamId)!),
    assignee: () => userNode(issue.assigneeId),
    labels: (args: PageArgs) =>
      connection(
        world.labels.filter((label) => issue.labelIds.includes(label.id)),
        args,
        (label) => label,
      ),
    comments: (args: PageArgs & { orderBy?: "createdAt" | "updatedAt" | null }) =>
      page(
        world.comments
          .filter((comment) => comment.issueId === issue.id)
          // A comment's updatedAt is its createdAt here, so either order is by createdAt.
          .sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
        args,
        commentNode,
      ),
  });

  function issueById(id: string): FakeIssue {
    return world.issues.find((issue) => issue.id === id)!;
  }
  /** Linear's issue(id:) takes the UUID or the identifier (ENG-123). */
  function findIssue(ref: string): FakeIssue {
    const issue = world.issues.find((candidate) => candidate.id === ref || identifier(candidate) === ref);
    if (!issue) throw notFound("Issue");
    return issue;
  }
  function assertTeamState(teamId: string, stateId: unknown) {
    if (stateId === undefined || stateId === null) return;
    if (!teamStates(teamId).some((state) => state.id === stateId)) throw notFound("WorkflowState");
  }
  function assertNewId(id: unknown, taken: boolean) {
    if (id === undefined || id === null) return;
    if (typeof id !== "string" || !UUID.test(id)) {
      throw inputError("Argument Validation Error", "id must be a UUID.");
    }
    if (taken) throw inputError("Argument Validation Error", "The id is already in use (the fake's words).");
  }

  const now = () => new Date().toISOString();
  const payload = (extra: Record<string, unknown>) => ({
    success: true,
    lastSyncId: world.issues.length,
    ...extra,
  });

  return {
    teams: (args: PageArgs) => page(world.teams, args, teamNode),
    team: ({ id }: { id: string }) => {
      const team = teamOf(id);
      if (!team) throw notFound("Team");
      return teamNode(team);
    },
    issue: ({ id }: { id: string }) => issueNode(findIssue(id)),
    comment: ({ id }: { id?: string }) => {
      const found = world.comments.find((comment) => comment.id === id);
      if (!found) throw notFound("Comment");
      return commentNode(found);
    },
    searchIssues: (
      args: PageArgs & {
        term: string;
        filter?: { team?: { id?: { eq?: string } } } | null;
        includeComments?: boolean | null;
      },
    ) => {
      const words = args.term.toLowerCase().split(/\s+/).filter(Boolean);
      const teamId = args.filter?.team?.id?.eq;
      const matches = world.issues.filter((issue) => {
        if (teamId !== undefined && issue.teamId !== teamId) return false;
        const comments = args.includeComments
          ? world.comments.filter((comment) => comment.issueId === issue.id).map((comment) => comment.body)
          : [];
        const text = [issue.title, issue.description ?? "", ...comments].join("\n").toLowerCase();
        return words.every((word) => text.includes(word));
      });
      return { ...page(matches, args, issueNode), totalCount: matches.length, archivePayload: null };
    },
    issueCreate: ({ input }: { input: Record<string, unknown> }) => {
      const team = teamOf(String(input.teamId));
      if (!team) throw notFound("Team");
      assertNewId(
        input.id,
        world.issues.some((issue) => issue.id === input.id),
      );
      assertTeamState(team.id, input.stateId);
      const number =
        Math.max(
          0,
          ...world.issues.filter((issue) => issue.teamId === team.id).map((issue) => issue.number),
        ) + 1;
      const issue: FakeIssue = {
        id: typeof input.id === "string" ? input.id : crypto.randomUUID(),
        teamId: team.id,
        number,
        title: String(input.title ?? ""),
        description: typeof input.description === "string" ? input.description : null,
        priority: typeof input.priority === "number" ? input.priority : 0,
        // A new issue lands in the team's first unstarted state unless told otherwise.
        stateId: String(input.stateId ?? teamStates(team.id).find((state) => state.type === "unstarted")?.id),
        assigneeId: typeof input.assigneeId === "string" ? input.assigneeId : null,
        labelIds: Array.isArray(input.labelIds) ? input.labelIds.map(String) : [],
        createdAt: now(),
        updatedAt: now(),
      };
      world.issues.push(issue);
      return payload({ issue: issueNode(issue) });
    },
    issueUpdate: ({ id, input }: { id: string; input: Record<string, unknown> }) => {
      const issue = findIssue(id);
      assertTeamState(issue.teamId, input.stateId);
      for (const field of [
        "title",
        "description",
        "priority",
        "stateId",
        "assigneeId",
        "labelIds",
      ] as const) {
        if (input[field] !== undefined) Object.assign(issue, { [field]: input[field] });
      }
      issue.updatedAt = now();
      return payload({ issue: issueNode(issue) });
    },
    commentCreate: ({ input }: { input: Record<string, unknown> }) => {
      const issue = findIssue(String(input.issueId));
      assertNewId(
        input.id,
        world.comments.some((comment) => comment.id === input.id),
      );
      const comment: FakeComment = {
        id: typeof input.id === "string" ? input.id : crypto.randomUUID(),
        issueId: issue.id,
        body: String(input.body ?? ""),
        userId: world.users[0]!.id,
        createdAt: now(),
      };
      world.comments.push(comment);
      return payload({ comment: commentNode(comment) });
    },
  };
}
