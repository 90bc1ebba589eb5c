/**
 * @module The workspace the Linear fake serves: two teams with their workflow states (the five Linear gives
 * a new team: Backlog, Todo, In Progress, Done, Canceled, typed backlog/unstarted/started/completed/canceled),
 * a few people, labels, issues and comments. Tests read and change it directly.
 */

export const TEST_KEY = "lin_api_test0123456789abcdefghijklmnopqrstuv";

export interface FakeTeam {
  id: string;
  key: string;
  name: string;
  description: string | null;
}
export interface FakeState {
  id: string;
  teamId: string;
  name: string;
  type: string;
  position: number;
}
export interface FakeUser {
  id: string;
  name: string;
  displayName: string;
}
export interface FakeLabel {
  id: string;
  name: string;
}
export interface FakeIssue {
  id: string;
  teamId: string;
  number: number;
  title: string;
  description: string | null;
  priority: number;
  stateId: string;
  assigneeId: string | null;
  labelIds: string[];
  createdAt: string;
  updatedAt: string;
}
export interface FakeComment {
  id: string;
  issueId: string;
  body: string;
  userId: string;
  createdAt: string;
}

export interface LinearWorld {
  teams: FakeTeam[];
  states: FakeState[];
  users: FakeUser[];
  labels: FakeLabel[];
  issues: FakeIssue[];
  comments: FakeComment[];
  /** Every connection says another page follows: for tests of the request bound. */
  endlessPages?: boolean;
}

export const ENG = "5a3c1e9b-7f24-4d6a-9c1e-2b8f0d4a6e11";
export const OPS = "8d2e4f6a-1b3c-4e5d-8f9a-0b1c2d3e4f52";
export const ADA = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a01";
export const GRACE = "0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a02";
export const BUG_LABEL = "6b7c8d9e-0f1a-4b2c-9d3e-4f5a6b7c8d01";

/** State ids: team prefix and position, readable in test output. */
const STATE_NAMES = [
  ["Backlog", "backlog"],
  ["Todo", "unstarted"],
  ["In Progress", "started"],
  ["Done", "completed"],
  ["Canceled", "canceled"],
] as const;

export function stateId(team: "eng" | "ops", index: number): string {
  const prefix = team === "eng" ? "e" : "f";
  return `${prefix}0000000-0000-4000-8000-00000000000${index}`;
}

export const ENG_TODO = stateId("eng", 1);
export const ENG_IN_PROGRESS = stateId("eng", 2);
export const ENG_DONE = stateId("eng", 3);
export const OPS_DONE = stateId("ops", 3);

export function issueUuid(number: number): string {
  return `1a2b3c4d-0000-4000-8000-${String(number).padStart(12, "0")}`;
}

/** The order Linear created the states in (Backlog last), not their position: lists must sort. */
const CREATED_ORDER = [1, 2, 3, 4, 0];

/** A fresh workspace; `extraIssues` more ENG issues titled "Flaky checkout test N" for pagination. */
export function createWorld(extraIssues = 0): LinearWorld {
  const at = "2026-11-02T09:00:00.000Z";
  const states: FakeState[] = [];
  for (const [team, teamId] of [
    ["eng", ENG],
    ["ops", OPS],
  ] as const) {
    for (const index of CREATED_ORDER) {
      const [name, type] = STATE_NAMES[index]!;
      states.push({ id: stateId(team, index), teamId, name, type, position: index });
    }
  }
  const issue = (number: number, fields: Partial<FakeIssue>): FakeIssue => ({
    id: issueUuid(number),
    teamId: ENG,
    number,
    title: `Issue ${number}`,
    description: null,
    priority: 0,
    stateId: ENG_TODO,
    assigneeId: null,
    labelIds: [],
    createdAt: at,
    updatedAt: at,
    ...fields,
  });
  const issues = [
    issue(1, {
      title: "Checkout fails on Safari",
      description: "Steps:\n1. Open checkout in Safari 17\n2. Pay\n\nThe button stays grey.",
      priority: 2,
      stateId: ENG_IN_PROGRESS,
      assigneeId: ADA,
      labelIds: [BUG_LABEL],
    }),
    issue(2, { title: "Upgrade the payment SDK", priority: 3 }),
    ...Array.from({ length: extraIssues }, (_, index) =>
      issue(100 + index, { title: `Flaky checkout test ${index + 1}`, priority: 4 }),
    ),
  ];
  return {
    teams: [
      { id: ENG, key: "ENG", name: "Engineering", description: "Product engineering" },
      { id: OPS, key: "OPS", name: "Operations", description: null },
    ],
    states,
    users: [
      { id: ADA, name: "Ada Lovelace", displayName: "ada" },
      { id: GRACE, name: "Grace Hopper", displayName: "grace" },
    ],
    labels: [{ id: BUG_LABEL, name: "Bug" }],
    issues,
    comments: [
      {
        id: "c0000000-0000-4000-8000-000000000001",
        issueId: issueUuid(1),
        body: "Reproduced on 17.1 too.",
        userId: GRACE,
        createdAt: "2026-11-02T10:00:00.000Z",
      },
    ],
  };
}
