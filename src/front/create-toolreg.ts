/**
 * @module `createToolreg`: the one front door of the library. Toolkits (and any tools of the host's own) in,
 * a seam over stores (memory unless given) behind it, and what an agent host does every turn: call a
 * tool, render the catalogue for a provider, find tools, decide approvals, and (given `consent`) park calls
 * for a user's OAuth consent and resume them. The parts stay exported for hosts that compose them differently.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createArtifactOutputStore } from "../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import { metaTools } from "../catalog/meta/index.js";
import { type CatalogFormats, type CatalogProvider, renderTools } from "../catalog/render-catalog.js";
import { toSearchDocument } from "../catalog/search/from-tool.js";
import { type SearchHit, ToolSearchIndex } from "../catalog/search/tool-search-index.js";
import type { EgressPolicyInit } from "../egress/egress-policy.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import type { ApprovalRecord, ApprovalStatus, Stores } from "../ports/stores.js";
import type { ToolkitRecordStore } from "../ports/toolkit-record-store.js";
import { type AnyTool, ToolRegistry } from "../registry/registry.js";
import type { Sandbox } from "../sandbox/sandbox.js";
import type { ConsentCallback, ConsentCompletion, GrantOf } from "../seam/consent/consent-desk.js";
import type { ConsentOptions } from "../seam/consent/consent-options.js";
import {
  type AssistantMode,
  type CredentialResolver,
  createExecutionContext,
  type ExecutionContext,
} from "../seam/context.js";
import type { Envelope } from "../seam/envelope.js";
import { type DecisionResult, Seam } from "../seam/seam.js";
import type { SeamOptions } from "../seam/seam-settings.js";
import { createMemoryStores } from "../stores/memory/index.js";
import { createMemoryToolkitRecordStore } from "../stores/memory/toolkit-records.js";
import { createToolkitHost } from "../tools/toolkit/toolkit-host.js";
import type { AnyToolkit } from "../tools/toolkits.js";

/** A toolkit with its configuration and, if wanted, only some of its tools. */
export interface ToolkitUse {
  toolkit: AnyToolkit;
  config?: unknown;
  include?: readonly string[];
  exclude?: readonly string[];
}

export interface ToolregOptions {
  /** Served in order; a toolkit given alone is bound with an empty configuration. */
  toolkits?: readonly (AnyToolkit | ToolkitUse)[];
  /** The host's own tools (defineTool), served after the toolkits'. */
  tools?: readonly AnyTool[];
  /** Memory stores unless given (`toolreg/stores/sqlite` for a file that outlives the process). */
  stores?: Stores;
  /** The operator's egress policy every toolkit's client starts from; public addresses only by default. */
  egress?: EgressPolicyInit;
  sandbox?: Sandbox;
  /** Where toolkits keep the files their tools make (screenshots, images, speech); those tools are absent without it. */
  artifacts?: ArtifactStore;
  /**
   * Where toolkits keep their own records of their calls (the e-mail toolkit's sent messages): in memory
   * unless given (`createSqliteToolkitRecordStore` from `toolreg/stores/sqlite` for records that outlive the
   * process; the host purges those past `TOOLKIT_RECORD_RETENTION_MS`).
   */
  records?: ToolkitRecordStore;
  /** Resolves the credentialRefs the toolkits' requests carry; none by default. With `consent`, leave it out. */
  credentials?: CredentialResolver;
  /**
   * Stored credentials and their users' OAuth consent: a call whose credential is missing is parked with a
   * link for its user and resumed once they consent. Its resolver is the one every call carries.
   */
  consent?: ConsentOptions;
  /** find_tools, learn_tools, execute_tool and read_tool_output beside the tools; on by default. */
  metaTools?: boolean;
  /** The seam's policies: approvals, authorization, toolsets, ceilings … */
  seam?: Omit<SeamOptions, "registry" | "stores" | "consent">;
}

/** Who is calling. A retry of the same call gives the same toolCallId, so it runs once. */
export interface Caller {
  tenantId: string;
  principalId: string;
  runId?: string;
  toolCallId?: string;
  idempotencyKey?: string;
  scopes?: readonly string[];
  mode?: AssistantMode;
  signal?: AbortSignal;
}

export interface Toolreg {
  readonly seam: Seam;
  readonly registry: ToolRegistry;
  call(caller: Caller, name: string, input: unknown): Promise<Envelope>;
  /** The tools this caller may see, in the provider's own format. */
  render<P extends CatalogProvider>(
    caller: Caller,
    provider: P,
    options?: CatalogFormats[P]["options"],
  ): CatalogFormats[P]["output"];
  /** The tools this caller may see that best match the query, best first. */
  find(caller: Caller, query: string, limit?: number): SearchHit[];
  approvals: {
    list(tenantId: string, status?: ApprovalStatus): Promise<ApprovalRecord[]>;
    approve(tenantId: string, approvalId: string, by: string, reason?: string): Promise<DecisionResult>;
    deny(tenantId: string, approvalId: string, by: string, reason?: string): Promise<DecisionResult>;
    /** Runs an approved call, once however often it is resumed. */
    resume(caller: Caller, approvalId: string): Promise<Envelope>;
  };
  /** Where a consent's start link sends its own user (the provider's authorization URL); refused to anyone else. */
  consentAuthorization: Seam["consentAuthorization"];
  /**
   * The provider sent the user back: the code is exchanged, the tokens stored, and each call waiting on that
   * credential resumed once (with `grantOf`'s scopes and mode for its user, else those it was called with).
   */
  completeConsent(callback: ConsentCallback, grantOf?: GrantOf): Promise<ConsentCompletion>;
  /** A call parked for its caller's consent: its result once resumed, else resumed now if since connected. */
  resumeParked(caller: Caller, parkedCallId: string): Promise<Envelope>;
  /** Stops the seam (letting running calls finish for up to `drainMs`) and closes what the toolkits opened. */
  close(drainMs?: number): Promise<void>;
}

export async function createToolreg(options: ToolregOptions = {}): Promise<Toolreg> {
  if (options.consent && options.credentials && options.credentials !== options.consent.resolver) {
    // The seam asks consent.resolver whether a credential is usable; calls resolving through another could disagree.
    throw new TypeError(
      "createToolreg: give credentials or consent.resolver, not both (chain one into the other)",
    );
  }
  const host = createToolkitHost({
    egressPolicy: options.egress,
    sandbox: options.sandbox,
    artifacts: options.artifacts,
    records: options.records ?? createMemoryToolkitRecordStore(),
  });
  try {
    return await assemble(options, host);
  } catch (error) {
    // A bad configuration or a duplicate name leaves nothing open: clients, databases, the scratch folder.
    await host.close();
    throw error;
  }
}

async function assemble(
  options: ToolregOptions,
  host: ReturnType<typeof createToolkitHost>,
): Promise<Toolreg> {
  const tools: AnyTool[] = [];
  for (const given of options.toolkits ?? []) {
    const use: ToolkitUse = "toolkit" in given ? given : { toolkit: given };
    tools.push(...(await use.toolkit.build(use.config ?? {}, host, use)));
  }
  tools.push(...(options.tools ?? []));
  const stores = options.stores ?? createMemoryStores();
  // Outputs over a tool's cap are kept whole for read_tool_output: where the host says, else in a scratch folder.
  const scratch = options.seam?.outputs ? undefined : mkdtempSync(join(tmpdir(), "toolreg-outputs-"));
  const outputs =
    options.seam?.outputs ?? createArtifactOutputStore(createFileArtifactStore(scratch as string));
  if (scratch) host.onClose(() => rmSync(scratch, { recursive: true, force: true }));
  let seam: Seam | undefined;
  const meta = options.metaTools === false ? [] : metaTools({ seam: () => seam as Seam, outputs });
  const registry = new ToolRegistry([...tools, ...meta]);
  seam = new Seam({ ...options.seam, consent: options.consent, outputs, registry: registry.view(), stores });
  const ready = seam;
  const credentials = options.consent?.resolver ?? options.credentials;
  const context = (caller: Caller): ExecutionContext =>
    createExecutionContext({
      runId: caller.runId ?? `run-${randomUUID()}`,
      toolCallId: caller.toolCallId ?? `call-${randomUUID()}`,
      ...caller,
      ...(credentials ? { credentials } : {}),
    });
  const index = new ToolSearchIndex(registry.list().map(toSearchDocument));
  return {
    seam: ready,
    registry,
    call: (caller, name, input) => ready.call(context(caller), name, input),
    render: (caller, provider, renderOptions) =>
      renderTools(provider, ready.visibleTools(context(caller)), renderOptions),
    find(caller, query, limit = 5) {
      const visible = new Set(ready.visibleTools(context(caller)).map((tool) => tool.name));
      return index
        .search(query, { limit: registry.list().length })
        .filter((hit) => visible.has(hit.name))
        .slice(0, limit);
    },
    approvals: {
      list: (tenantId, status) => stores.approvals.list({ tenantId, ...(status ? { status } : {}) }),
      approve: (tenantId, approvalId, by, reason) =>
        ready.approve({ tenantId, approvalId, by, ...(reason ? { reason } : {}) }),
      deny: (tenantId, approvalId, by, reason) =>
        ready.deny({ tenantId, approvalId, by, ...(reason ? { reason } : {}) }),
      resume: (caller, approvalId) => ready.resume(context(caller), approvalId),
    },
    consentAuthorization: (user, consentId) => ready.consentAuthorization(user, consentId),
    completeConsent: (callback, grantOf) => ready.completeConsent(callback, grantOf),
    resumeParked: (caller, parkedCallId) => ready.resumeParked(context(caller), parkedCallId),
    async close(drainMs = 5_000) {
      await ready.stop(drainMs);
      await ready.close();
      await host.close();
    },
  };
}
