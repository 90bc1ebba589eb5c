/**
 * @module The fake GitHub's accounts, repositories, issues, pull requests and Projects v2 as plain data,
 * which the GraphQL resolvers (projects-resolvers.ts) read and change. Ids are minted in GitHub's node-id
 * style (`PVT_…`, `PVTI_…`, `I_…`) so nothing downstream can tell them apart by shape; projects are created
 * with the fields GitHub gives every new project.
 */

export type AccountKind = "Organization" | "User";
export type FieldDataType =
  | "TITLE"
  | "ASSIGNEES"
  | "LABELS"
  | "MILESTONE"
  | "REPOSITORY"
  | "TEXT"
  | "NUMBER"
  | "DATE"
  | "SINGLE_SELECT"
  | "ITERATION";

export interface FakeAccount {
  id: string;
  login: string;
  kind: AccountKind;
}

export interface FakeRepository {
  id: string;
  owner: FakeAccount;
  name: string;
}

export interface FakeContent {
  id: string;
  kind: "Issue" | "PullRequest";
  repository: FakeRepository;
  number: number;
  title: string;
  state: "OPEN" | "CLOSED" | "MERGED";
}

export interface FakeOption {
  id: string;
  name: string;
  color: "GRAY" | "BLUE" | "GREEN" | "YELLOW" | "ORANGE" | "RED" | "PINK" | "PURPLE";
  description: string;
}

export interface FakeIteration {
  id: string;
  title: string;
  startDate: string;
  duration: number;
}

export interface FakeField {
  id: string;
  name: string;
  dataType: FieldDataType;
  options?: FakeOption[];
  iterations?: { active: FakeIteration[]; completed: FakeIteration[] };
}

export type FakeValue =
  | { text: string }
  | { number: number }
  | { date: string }
  | { optionId: string }
  | { iterationId: string };

export interface FakeItem {
  id: string;
  /** An issue or pull request; a draft carries its own title; `redacted` is one the token may not see. */
  content: FakeContent | { draftTitle: string } | "redacted";
  values: Map<string, FakeValue>;
  isArchived: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface FakeProject {
  id: string;
  number: number;
  owner: FakeAccount;
  title: string;
  shortDescription: string | null;
  closed: boolean;
  createdAt: string;
  updatedAt: string;
  fields: FakeField[];
  items: FakeItem[];
  repositories: FakeRepository[];
}

export interface ProjectsWorld {
  accounts: FakeAccount[];
  repositories: FakeRepository[];
  contents: FakeContent[];
  projects: FakeProject[];
  /** The classic OAuth scopes of the token the fake serves; a test narrows them to see GitHub refuse. */
  token: { scopes: string[] };
  /** Refusals a Query or Mutation field answers once, as GitHub would (see `failNextField`). */
  failures: { field: string; type: string; message: string }[];
  /** A new node id with GitHub's type prefix. */
  mint(prefix: string): string;
  /** An id in GitHub's style for an option or an iteration (eight hex digits). */
  shortId(): string;
  now(): string;
}

const NOW = "2024-05-01T09:00:00Z";

/** An empty world; `seedProjectsWorld` gives the one the tests share. */
export function createProjectsWorld(): ProjectsWorld {
  let counter = 0;
  return {
    accounts: [],
    repositories: [],
    contents: [],
    projects: [],
    token: { scopes: ["repo", "project"] },
    failures: [],
    mint: (prefix) => `${prefix}_kwDOA${(++counter).toString(36).padStart(6, "0")}`,
    shortId: () => (0x1f00_0000 + ++counter).toString(16),
    now: () => NOW,
  };
}

/**
 * The next call of the root field `field` (e.g. deleteProjectV2Item) fails with GitHub's error `type`:
 * `null` at that path beside `{ type, path, locations, message }`, as GitHub answers a refused field.
 */
export function failNextField(world: ProjectsWorld, field: string, type: string, message: string): void {
  world.failures.push({ field, type, message });
}

export function addAccount(world: ProjectsWorld, login: string, kind: AccountKind): FakeAccount {
  const account = { id: world.mint(kind === "Organization" ? "O" : "U"), login, kind };
  world.accounts.push(account);
  return account;
}

export function addRepository(world: ProjectsWorld, owner: FakeAccount, name: string): FakeRepository {
  const repository = { id: world.mint("R"), owner, name };
  world.repositories.push(repository);
  return repository;
}

export function addContent(
  world: ProjectsWorld,
  repository: FakeRepository,
  kind: FakeContent["kind"],
  number: number,
  title: string,
): FakeContent {
  const content: FakeContent = {
    id: world.mint(kind === "Issue" ? "I" : "PR"),
    kind,
    repository,
    number,
    title,
    state: "OPEN",
  };
  world.contents.push(content);
  return content;
}

/** A project as GitHub creates one: its built-in fields and a Status with Todo, In Progress and Done. */
export function addProject(
  world: ProjectsWorld,
  owner: FakeAccount,
  title: string,
  repository?: FakeRepository,
): FakeProject {
  const number = Math.max(0, ...world.projects.filter((p) => p.owner === owner).map((p) => p.number)) + 1;
  const field = (name: string, dataType: FieldDataType): FakeField => ({
    id: world.mint(dataType === "SINGLE_SELECT" ? "PVTSSF" : "PVTF"),
    name,
    dataType,
  });
  const option = (name: string, color: FakeOption["color"], description: string): FakeOption => ({
    id: world.shortId(),
    name,
    color,
    description,
  });
  const project: FakeProject = {
    id: world.mint("PVT"),
    number,
    owner,
    title,
    shortDescription: null,
    closed: false,
    createdAt: world.now(),
    updatedAt: world.now(),
    fields: [
      field("Title", "TITLE"),
      field("Assignees", "ASSIGNEES"),
      {
        ...field("Status", "SINGLE_SELECT"),
        options: [
          option("Todo", "GREEN", "This item hasn't been started"),
          option("In Progress", "YELLOW", "This is actively being worked on"),
          option("Done", "PURPLE", "This has been completed"),
        ],
      },
      field("Labels", "LABELS"),
      field("Milestone", "MILESTONE"),
      field("Repository", "REPOSITORY"),
    ],
    items: [],
    repositories: repository ? [repository] : [],
  };
  world.projects.push(project);
  return project;
}

export function addField(
  world: ProjectsWorld,
  project: FakeProject,
  name: string,
  dataType: "TEXT" | "NUMBER" | "DATE",
): FakeField {
  const field = { id: world.mint("PVTF"), name, dataType };
  project.fields.push(field);
  return field;
}

export function addIterationField(
  world: ProjectsWorld,
  project: FakeProject,
  name: string,
  iterations: { title: string; startDate: string; completed?: boolean }[],
): FakeField {
  const made = iterations.map(({ title, startDate, completed }) => ({
    iteration: { id: world.shortId(), title, startDate, duration: 14 },
    completed: completed === true,
  }));
  const field: FakeField = {
    id: world.mint("PVTIF"),
    name,
    dataType: "ITERATION",
    iterations: {
      active: made.filter((entry) => !entry.completed).map((entry) => entry.iteration),
      completed: made.filter((entry) => entry.completed).map((entry) => entry.iteration),
    },
  };
  project.fields.push(field);
  return field;
}

export function addItem(
  world: ProjectsWorld,
  project: FakeProject,
  content: FakeItem["content"],
  values: Record<string, FakeValue> = {},
): FakeItem {
  const item: FakeItem = {
    id: world.mint("PVTI"),
    content,
    values: new Map(
      Object.entries(values).map(([name, value]) => [fieldNamed(project, name).id, value] as const),
    ),
    isArchived: false,
    createdAt: world.now(),
    updatedAt: world.now(),
  };
  project.items.push(item);
  return item;
}

export function fieldNamed(project: FakeProject, name: string): FakeField {
  const field = project.fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`the fake project ${project.title} has no field ${name}`);
  return field;
}

export function optionNamed(field: FakeField, name: string): FakeOption {
  const option = field.options?.find((candidate) => candidate.name === name);
  if (!option) throw new Error(`the fake field ${field.name} has no option ${name}`);
  return option;
}

export function iterationTitled(field: FakeField, title: string): FakeIteration {
  const all = [...(field.iterations?.active ?? []), ...(field.iterations?.completed ?? [])];
  const iteration = all.find((candidate) => candidate.title === title);
  if (!iteration) throw new Error(`the fake field ${field.name} has no iteration ${title}`);
  return iteration;
}

/**
 * The world the project tests share: octo-org (an organisation) with the repository octo-org/roadmap
 * (issues 1–6, pull request 10), its project 1 "Roadmap" with custom fields and items of every kind, a
 * closed project 2 and projects 3–5; octocat (a user) with one project; octo-org's project 6 "Backlog"
 * holds `backlogItems` issues, for the pagination tests.
 */
export function seedProjectsWorld({ backlogItems = 0 } = {}): ProjectsWorld {
  const world = createProjectsWorld();
  const org = addAccount(world, "octo-org", "Organization");
  const user = addAccount(world, "octocat", "User");
  const repository = addRepository(world, org, "roadmap");
  const issues = [1, 2, 3, 4, 5, 6].map((number) =>
    addContent(world, repository, "Issue", number, `Issue ${number}`),
  );
  const pull = addContent(world, repository, "PullRequest", 10, "Pull request 10");

  const roadmap = addProject(world, org, "Roadmap", repository);
  roadmap.shortDescription = "What we ship this quarter";
  addField(world, roadmap, "Notes", "TEXT");
  addField(world, roadmap, "Estimate", "NUMBER");
  addField(world, roadmap, "Due", "DATE");
  addIterationField(world, roadmap, "Sprint", [
    { title: "Sprint 1", startDate: "2024-04-01", completed: true },
    { title: "Sprint 2", startDate: "2024-04-15" },
    { title: "Sprint 3", startDate: "2024-04-29" },
  ]);
  const status = fieldNamed(roadmap, "Status");
  const sprint = fieldNamed(roadmap, "Sprint");
  addItem(world, roadmap, issues[0] as FakeContent, {
    Status: { optionId: optionNamed(status, "In Progress").id },
    Notes: { text: "Needs a design review" },
    Estimate: { number: 3 },
    Due: { date: "2024-05-20" },
    Sprint: { iterationId: iterationTitled(sprint, "Sprint 2").id },
  });
  addItem(world, roadmap, issues[1] as FakeContent, { Status: { optionId: optionNamed(status, "Todo").id } });
  addItem(world, roadmap, pull, { Status: { optionId: optionNamed(status, "Done").id } });
  addItem(world, roadmap, { draftTitle: "Write the launch post" });
  addItem(world, roadmap, "redacted");

  const launch = addProject(world, org, "Launch");
  launch.closed = true;
  for (const title of ["Hiring", "Security review", "Docs"]) addProject(world, org, title);
  addProject(world, user, "Personal");

  const backlog = addProject(world, org, "Backlog");
  for (let number = 100; number < 100 + backlogItems; number += 1) {
    addItem(world, backlog, addContent(world, repository, "Issue", number, `Backlog issue ${number}`));
  }
  return world;
}
