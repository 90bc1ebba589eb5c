/**
 * @module The fake's one repository, in memory: commits with their trees, branches, tags, and files whose
 * blob shas are git's, so a write changes a file's sha exactly as GitHub's does and a stale sha is
 * refused for real. A test can make a file change between a tool's lookup and its write.
 */
import { gitBlobSha, objectId } from "./git-answers.js";

export interface FakeFile {
  bytes: Buffer;
  sha: string;
}

export interface FakePerson {
  name: string;
  email: string;
  login: string;
}

export interface FakeChange {
  filename: string;
  status: "added" | "modified" | "removed";
  additions: number;
  deletions: number;
  patch?: string;
}

export interface FakeCommit {
  sha: string;
  message: string;
  author: FakePerson;
  date: string;
  parents: string[];
  tree: ReadonlyMap<string, FakeFile>;
  changes: FakeChange[];
}

export interface FakeBranch {
  name: string;
  head: string;
  protected: boolean;
}

export const OCTOCAT: FakePerson = {
  name: "Monalisa Octocat",
  email: "octocat@github.com",
  login: "octocat",
};
export const HUBOT: FakePerson = { name: "Hubot", email: "hubot@github.com", login: "hubot" };

/** Files the default repository starts with; tests read them back. */
export const SEED_FILES = {
  "README.md": "# Hello World\n\nA repository for tests.\n",
  "src/index.ts": 'export const greeting = "hello";\n',
};

export class FakeRepository {
  readonly owner = "octocat";
  readonly name = "hello-world";
  readonly defaultBranch = "main";
  readonly commits = new Map<string, FakeCommit>();
  readonly branches = new Map<string, FakeBranch>();
  readonly tags = new Map<string, string>();
  #clock = Date.parse("2024-01-01T00:00:00Z");
  readonly #afterRead = new Map<string, () => void>();

  constructor(files: Record<string, string | Uint8Array> = SEED_FILES) {
    const sha = this.#commit("Initial commit", OCTOCAT, [], new Map(), files);
    this.branches.set(this.defaultBranch, { name: this.defaultBranch, head: sha, protected: true });
  }

  /** Whether a request's `:owner/:repo` names this repository (GitHub's names are case-insensitive). */
  is(owner: string, repo: string): boolean {
    return owner.toLowerCase() === this.owner && repo.toLowerCase() === this.name;
  }

  /** The commit a branch, tag or sha names; the default branch's head when `ref` is empty. */
  resolve(ref: string | undefined): FakeCommit | undefined {
    const name = ref || this.defaultBranch;
    const sha =
      this.branches.get(name.replace(/^(refs\/)?heads\//, ""))?.head ??
      this.tags.get(name.replace(/^(refs\/)?tags\//, "")) ??
      [...this.commits.keys()].find((each) => name.length >= 7 && each.startsWith(name.toLowerCase()));
    return sha === undefined ? undefined : this.commits.get(sha);
  }

  /** Commits `files` (text, bytes, or null to delete) on `branch` as `author`; returns the new commit. */
  commit(
    branch: string,
    message: string,
    files: Record<string, string | Uint8Array | null>,
    author: FakePerson = OCTOCAT,
  ): FakeCommit {
    const current = this.branches.get(branch);
    if (!current) throw new Error(`the fake repository has no branch ${branch}`);
    const parent = this.commits.get(current.head) as FakeCommit;
    const sha = this.#commit(message, author, [parent.sha], parent.tree, files);
    current.head = sha;
    return this.commits.get(sha) as FakeCommit;
  }

  /** The commits reachable from `head` by first parents, newest first, as `git log --first-parent`. */
  history(head: string): FakeCommit[] {
    const found: FakeCommit[] = [];
    for (let at = this.commits.get(head); at; at = this.commits.get(at.parents[0] ?? "")) found.push(at);
    return found;
  }

  /** Runs `change` once, right after the next read of `path` is answered: another writer, between a tool's lookup and its write. */
  afterNextRead(path: string, change: () => void): void {
    this.#afterRead.set(path, change);
  }

  /** Called by the contents route once it has answered a read of `path`. */
  wasRead(path: string): void {
    const change = this.#afterRead.get(path);
    this.#afterRead.delete(path);
    change?.();
  }

  #commit(
    message: string,
    author: FakePerson,
    parents: string[],
    base: ReadonlyMap<string, FakeFile>,
    files: Record<string, string | Uint8Array | null>,
  ): string {
    this.#clock += 60_000;
    const tree = new Map(base);
    const changes: FakeChange[] = [];
    for (const [path, content] of Object.entries(files)) {
      const before = tree.get(path);
      if (content === null) {
        tree.delete(path);
        changes.push(change(path, "removed", before?.bytes, undefined));
        continue;
      }
      const bytes = Buffer.from(content);
      tree.set(path, { bytes, sha: gitBlobSha(bytes) });
      changes.push(change(path, before ? "modified" : "added", before?.bytes, bytes));
    }
    const sha = objectId(`${parents.join(",")}\n${message}\n${this.#clock}`);
    const date = new Date(this.#clock).toISOString().replace(/\.000Z$/, "Z");
    this.commits.set(sha, { sha, message, author, date, parents, tree, changes });
    return sha;
  }
}

/** A file's change as a unified diff of whole-file replacement: enough for counts and a patch to cap. */
function change(
  filename: string,
  status: FakeChange["status"],
  before: Buffer | undefined,
  after: Buffer | undefined,
): FakeChange {
  const lines = (bytes: Buffer | undefined) =>
    bytes === undefined || bytes.includes(0) ? [] : bytes.toString("utf8").split("\n").filter(Boolean);
  const removed = lines(before);
  const added = lines(after);
  const binary = Boolean(before?.includes(0) || after?.includes(0));
  const patch = binary
    ? undefined
    : [
        `@@ -${removed.length ? 1 : 0},${removed.length} +${added.length ? 1 : 0},${added.length} @@`,
        ...removed.map((line) => `-${line}`),
        ...added.map((line) => `+${line}`),
      ].join("\n");
  return {
    filename,
    status,
    additions: added.length,
    deletions: removed.length,
    ...(patch === undefined ? {} : { patch }),
  };
}
