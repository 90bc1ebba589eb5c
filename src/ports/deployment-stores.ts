/**
 * @module Every store a registry server needs, on one backend: what `toolreg serve --store` opens, a SQLite
 * file for one host or a PostgreSQL database that many instances share.
 */
import type { AttachmentStore } from "./attachment-store.js";
import type { AuthStore } from "./auth-store.js";
import type { ConsentStore } from "./consent-store.js";
import type { CredentialStore } from "./credential-store.js";
import type { KnowledgeBase } from "./knowledge-base.js";
import type { MemoryStore } from "./memory-store.js";
import type { PinStore } from "./pin-store.js";
import type { ScheduleStore } from "./schedule-store.js";
import type { SkillStore } from "./skill-store.js";
import type { Stores } from "./stores.js";
import type { TodoStore } from "./todo-store.js";
import type { ToolkitRecordStore } from "./toolkit-record-store.js";

export interface SealedStores {
  credentials: CredentialStore;
  consents: ConsentStore;
}

export interface DeploymentStores extends Stores {
  auth: AuthStore;
  pins: PinStore;
  /** The files people hand their agents, which the attachments toolkit's tools list and read. */
  attachments: AttachmentStore;
  /** Each principal's memories, which the memory toolkit's tools keep. */
  memories: MemoryStore;
  /** Each tenant's knowledge base, which `toolreg kb` and the API fill and search_knowledge searches. */
  knowledge: KnowledgeBase;
  /** Each run's todo list, which the todo toolkit's tools keep. */
  todos: TodoStore;
  /** Each principal's schedules, which the schedule tools make and the server's scheduler fires. */
  schedules: ScheduleStore;
  /** Each tenant's skills, which load_skill reads, skill_manage writes and MCP serves as prompts. */
  skills: SkillStore;
  /** A toolkit's own records of its calls (the e-mail toolkit's sent messages), per principal. */
  records: ToolkitRecordStore;
  /**
   * The credential and consent stores, when the stores were opened with the operator's 32-byte key, which
   * their secrets are sealed under (opening with another key than the one they were sealed under fails).
   */
  sealed: SealedStores | undefined;
  close(): Promise<void>;
}
