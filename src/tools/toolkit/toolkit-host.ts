/**
 * @module What a host lends a toolkit when it binds: an egress client that reaches only the toolkit's
 * hosts with its credential injected there, the sandbox and the deployment's stores when there are, and a
 * place to register what must be closed when the host stops.
 */
import { createEgressClient, type EgressClient } from "../../egress/egress-client.js";
import type { CredentialExchange, EgressPolicyInit } from "../../egress/egress-policy.js";
import type { ArtifactStore } from "../../ports/artifact-store.js";
import type { AttachmentStore } from "../../ports/attachment-store.js";
import type { KnowledgeBase, KnowledgeEmbedder } from "../../ports/knowledge-base.js";
import type { MemoryStore } from "../../ports/memory-store.js";
import type { ScheduleStore, ScheduleTargets } from "../../ports/schedule-store.js";
import type { SkillStore } from "../../ports/skill-store.js";
import type { TodoStore } from "../../ports/todo-store.js";
import type { ToolkitRecordStore } from "../../ports/toolkit-record-store.js";
import type { Sandbox } from "../../sandbox/sandbox.js";
import { type CredentialPlacement, placementOf } from "./auth-model.js";

export interface ToolkitEgressRequest {
  /** The hosts it may reach (exact or `*.suffix`); any host the operator's policy allows when omitted. */
  hosts?: readonly string[];
  /**
   * Injected on every request to `hosts`; resolved per call through the caller's credential resolver, and
   * traded by `exchange` when what is resolved is not what is sent (a GitHub App's private key).
   */
  credential?: CredentialPlacement & { credentialRef: string; exchange?: CredentialExchange };
  /**
   * A cookie jar of this client's own, for an anonymous vendor session (see EgressClientOptions): every
   * tenant and principal of the deployment shares it, so never for a per-user login.
   */
  sessionCookies?: boolean;
}

/** The deployment's stores a toolkit keeps its state in; a toolkit whose store is missing serves no tools. */
export interface ToolkitStores {
  /** Each run's todo list. */
  todos?: TodoStore | undefined;
  /** Each principal's memories. */
  memories?: MemoryStore | undefined;
  /** Each principal's schedules, and how a scheduled tool call is checked when it is made (the host's seam). */
  schedules?: ScheduleStore | undefined;
  scheduleTargets?: ScheduleTargets | undefined;
  /** Each tenant's knowledge base, searched with `knowledgeEmbedder` (the model its sources were embedded by). */
  knowledge?: KnowledgeBase | undefined;
  knowledgeEmbedder?: KnowledgeEmbedder | undefined;
  /** The files people attach. */
  attachments?: AttachmentStore | undefined;
  /** Each tenant's skills. */
  skills?: SkillStore | undefined;
  /** Where the files tools make are kept (screenshots, images, speech), per tenant, served as `artifact://`. */
  artifacts?: ArtifactStore | undefined;
  /** A toolkit's own records of its calls (the e-mail toolkit's sent messages), per principal. */
  records?: ToolkitRecordStore | undefined;
}

export interface ToolkitHost extends ToolkitStores {
  egress(request?: ToolkitEgressRequest): EgressClient;
  sandbox?: Sandbox | undefined;
  /** Called once when the host stops, in reverse order of registration. */
  onClose(close: () => Promise<void> | void): void;
}

export interface ToolkitHostOptions extends ToolkitStores {
  /** The operator's policy every toolkit's client starts from (address classes, caps, timeouts). */
  egressPolicy?: EgressPolicyInit;
  sandbox?: Sandbox | undefined;
}

/** A host for toolkits and the one `close` that ends everything they opened. */
export function createToolkitHost(
  options: ToolkitHostOptions = {},
): ToolkitHost & { close(): Promise<void> } {
  const closers: (() => Promise<void> | void)[] = [];
  return {
    sandbox: options.sandbox,
    todos: options.todos,
    memories: options.memories,
    schedules: options.schedules,
    scheduleTargets: options.scheduleTargets,
    knowledge: options.knowledge,
    knowledgeEmbedder: options.knowledgeEmbedder,
    attachments: options.attachments,
    skills: options.skills,
    artifacts: options.artifacts,
    records: options.records,
    egress(request = {}) {
      const { credential, hosts, sessionCookies } = request;
      if (credential && !hosts)
        throw new TypeError("a toolkit's credential is bound to the hosts it is for: name them");
      const client = createEgressClient({
        policy: {
          ...options.egressPolicy,
          ...(hosts ? { allowHosts: [...hosts] } : {}),
          ...(credential && hosts
            ? {
                credentials: Object.fromEntries(
                  hosts.map((host) => [
                    host,
                    {
                      ...placementOf(credential),
                      credentialRef: credential.credentialRef,
                      exchange: credential.exchange,
                    },
                  ]),
                ),
              }
            : {}),
        },
        ...(sessionCookies ? { sessionCookies } : {}),
      });
      closers.push(() => client.close());
      return client;
    },
    onClose(close) {
      closers.push(close);
    },
    async close() {
      const pending = closers.splice(0).reverse();
      for (const close of pending) await close();
    },
  };
}
