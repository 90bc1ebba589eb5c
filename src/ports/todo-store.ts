/**
 * @module The port for a run's todo list: the plan an agent keeps while it works through a multi-step task.
 * A list belongs to one run of one principal in one tenant; every method takes that key, which a tool reads
 * from its ExecutionContext and never from the model's input, so no call can reach another run's list.
 */
import { ToolFailure } from "../errors/tool-failure.js";

export const TODO_STATUSES = ["pending", "in_progress", "completed"] as const;
export type TodoStatus = (typeof TODO_STATUSES)[number];

export interface TodoItem {
  /** Short and stable across writes, so the model can name the item it updates. */
  id: string;
  content: string;
  status: TodoStatus;
}

/** Whose list: the run, of the principal, in the tenant. */
export interface TodoKey {
  tenantId: string;
  principalId: string;
  runId: string;
}

export interface TodoList {
  items: TodoItem[];
  /** 0 before the first write; each write adds one. */
  revision: number;
}

export interface TodoWrite {
  /** The whole list: it replaces the one stored. */
  items: readonly TodoItem[];
  /**
   * The revision the writer last read: when another write came first (two agents of one run), the write is
   * refused with `precondition_failed` instead of erasing what the other wrote. Unchecked when omitted.
   */
  expectedRevision?: number;
  now: number;
}

export interface TodoStore {
  /** The run's list; no items at revision 0 when it was never written. */
  read(key: TodoKey): Promise<TodoList>;
  /**
   * Replaces the run's whole list at once and returns it with its new revision. Refuses a list outside
   * `TODO_LIMITS` (`invalid_input`) or a stale `expectedRevision` (`precondition_failed`), writing nothing.
   */
  write(key: TodoKey, write: TodoWrite): Promise<TodoList>;
  /** Deletes the lists last written before `before` (runs long over); how many went. */
  purge(request: { before: number }): Promise<number>;
}

export const TODO_LIMITS = { items: 100, contentChars: 500, idChars: 40 } as const;

/** How long a run's list is kept after its last write: runs are hours long, a month leaves room to look back. */
export const TODO_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/**
 * What every adapter checks before writing, so a refusal reads the same on every backend (each message says
 * what to change, because the model reads it and tries again): the items as they are stored, fields no
 * item has left out.
 */
/** Control characters, tab included: an item is one line. */
const CONTROL = /\p{Cc}/u;
/** Half of a surrogate pair without its other half: not text, and JSON that PostgreSQL refuses. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function checkedTodoItems(items: readonly TodoItem[]): TodoItem[] {
  const refuse = (message: string): never => {
    throw new ToolFailure("invalid_input", message);
  };
  if (items.length > TODO_LIMITS.items)
    refuse(
      `the list has ${items.length} items; keep at most ${TODO_LIMITS.items} (merge small steps, drop completed ones)`,
    );
  const ids = new Set<string>();
  const inProgress: string[] = [];
  for (const item of items) {
    if (item.id.length > TODO_LIMITS.idChars || !ID.test(item.id))
      refuse(
        `item id "${item.id.slice(0, TODO_LIMITS.idChars)}" must be 1-${TODO_LIMITS.idChars} letters, digits, _, . or -`,
      );
    if (ids.has(item.id)) refuse(`item id "${item.id}" appears twice; give each item its own id`);
    ids.add(item.id);
    if (item.content.trim().length === 0) refuse(`item "${item.id}" has no content`);
    // One line of text: a newline could forge more items in the rendered list, a NUL or a lone surrogate
    // is refused by PostgreSQL's JSONB, and the list must read the same on every backend.
    if (CONTROL.test(item.content) || LONE_SURROGATE.test(item.content))
      refuse(`item "${item.id}" has a line break or control character; write each item as one line of text`);
    if (item.content.length > TODO_LIMITS.contentChars)
      refuse(
        `item "${item.id}" is ${item.content.length} characters; keep each item under ${TODO_LIMITS.contentChars}`,
      );
    if (!(TODO_STATUSES as readonly string[]).includes(item.status))
      refuse(`item "${item.id}" has status "${item.status}"; use ${TODO_STATUSES.join(", ")}`);
    if (item.status === "in_progress") inProgress.push(item.id);
  }
  if (inProgress.length > 1)
    refuse(
      `${inProgress.length} items are in_progress (${inProgress.join(", ")}); keep exactly one in_progress and mark the others pending or completed`,
    );
  return items.map(({ id, content, status }) => ({ id, content, status }));
}

/** The refusal of a write whose `expectedRevision` another write overtook. */
export function staleRevision(expected: number, current: number): ToolFailure {
  return new ToolFailure(
    "precondition_failed",
    `the list changed since revision ${expected} (it is now at revision ${current}); read it again and write the whole list from there`,
    { details: { expectedRevision: expected, revision: current } },
  );
}
