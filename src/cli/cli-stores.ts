/**
 * @module Where the CLI's state lives and how it is opened: a SQLite file for one host (--db, $TOOLREG_DB,
 * .toolreg/toolreg.db), or a postgres:// URL that many instances share. Every command opens the same stores.
 */
import { mkdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { createArtifactOutputStore } from "../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import type { AttachmentStore } from "../ports/attachment-store.js";
import type { DeploymentStores } from "../ports/deployment-stores.js";
import type { KnowledgeBase } from "../ports/knowledge-base.js";
import type { MemoryStore } from "../ports/memory-store.js";
import type { ScheduleStore, ScheduleStoreOptions } from "../ports/schedule-store.js";
import type { SkillStore } from "../ports/skill-store.js";
import type { TodoStore } from "../ports/todo-store.js";
import type { ToolkitRecordStore } from "../ports/toolkit-record-store.js";
import type { OutputStore } from "../seam/output-store.js";
import { createPostgresArtifactStore, openPostgresDeployment } from "../stores/postgres/index.js";
import { openSqliteDeployment } from "../stores/sqlite/index.js";
import { type CliIo, UsageError } from "./cli-io.js";

export const DEFAULT_DB = ".toolreg/toolreg.db";

export type StateLocation =
  | { kind: "sqlite"; path: string }
  | { kind: "postgres"; url: string; schema: string | undefined };

const POSTGRES_URL = /^postgres(ql)?:\/\//i;

/**
 * --db (or serve's --store), else $TOOLREG_DB, else the config file's `store` (read only when neither
 * says), else the embedded file under the working directory.
 */
export function stateLocation(
  options: { db?: string | undefined },
  io: CliIo,
  configured: () => string | undefined = () => undefined,
): StateLocation {
  const given = options.db || io.env.TOOLREG_DB || configured() || DEFAULT_DB;
  if (POSTGRES_URL.test(given)) {
    let url: URL;
    try {
      url = new URL(given);
    } catch {
      throw new UsageError("the store's postgres:// URL does not parse; e.g. postgres://user@host:5432/db");
    }
    // ?schema= is toolreg's, not the driver's: the tables' schema (default toolreg), so deployments can share a database.
    const schema = url.searchParams.get("schema") ?? undefined;
    if (schema !== undefined && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new UsageError(`the store's schema "${schema}" must be lower-case letters, digits and _`);
    }
    url.searchParams.delete("schema");
    return { kind: "postgres", url: url.toString(), schema };
  }
  return { kind: "sqlite", path: resolve(io.cwd, given) };
}

/** A directory of the host's own for files beside the state: the SQLite file's, or .toolreg/ for PostgreSQL. */
export function localStateDir(location: StateLocation, io: CliIo): string {
  return location.kind === "sqlite" ? dirname(location.path) : resolve(io.cwd, dirname(DEFAULT_DB));
}

export interface CliStores extends DeploymentStores {
  /** Where outputs over their cap are kept, so `read_tool_output` finds them from the next command or instance. */
  outputs: OutputStore;
  /** Where the files tools make are kept (screenshots, images, speech): beside the SQLite file, or in PostgreSQL. */
  artifacts: ArtifactStore;
}

/** Opens every store at `location`; with `credentialsKey`, the sealed credential and consent stores too. */
export async function openCliStores(
  location: StateLocation,
  options: {
    credentialsKey?: Uint8Array | undefined;
    schedules?: ScheduleStoreOptions | undefined;
    /** False for `serve`: the registry server reconciles when it starts, so the command need not first. */
    reconcile?: boolean;
  } = {},
): Promise<CliStores> {
  const credentialsKey = {
    ...(options.credentialsKey ? { credentialsKey: options.credentialsKey } : {}),
    ...(options.schedules ? { schedules: options.schedules } : {}),
  };
  if (location.kind === "postgres") {
    const stores = await openPostgresDeployment({
      connectionString: location.url,
      ...(location.schema ? { schema: location.schema } : {}),
      ...credentialsKey,
    });
    const artifacts = createPostgresArtifactStore(stores.pool, stores.schema);
    if (options.reconcile !== false) await reconcileAttachments(stores);
    return {
      ...stores,
      outputs: createArtifactOutputStore(artifacts),
      artifacts,
      close: once(() => stores.close()),
    };
  }
  mkdirSync(dirname(location.path), { recursive: true });
  const stores = openSqliteDeployment(location.path, credentialsKey);
  const outputs = createArtifactOutputStore(createFileArtifactStore(join(dirname(location.path), "outputs")));
  const artifacts = createFileArtifactStore(join(dirname(location.path), "artifacts"));
  if (options.reconcile !== false) await reconcileAttachments(stores);
  return { ...stores, outputs, artifacts, close: once(() => stores.close()) };
}

/**
 * Repairs what a crash left among the attachments (bytes no record names, a record whose bytes are gone)
 * before any command reads them; a failure closes the stores and is the command's.
 */
async function reconcileAttachments(stores: DeploymentStores): Promise<void> {
  try {
    await stores.attachments.reconcile();
  } catch (error) {
    await stores.close().catch(() => {});
    throw error;
  }
}

/** The server closes the stores it was given, and the command closes them after it: the second is a no-op. */
function once(close: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => {
    closing ??= close();
    return closing;
  };
}

/**
 * A command's stores, opened on first need and closed once the command ends. The first caller's key
 * decides whether the credential and consent stores are sealed open: serve and `credentials` ask first.
 */
export function lazyCliStores(
  locate: () => StateLocation,
  settings: { schedules?: () => ScheduleStoreOptions } = {},
) {
  let opened: Promise<CliStores> | undefined;
  let located: StateLocation | undefined;
  const location = () => {
    located ??= locate();
    return located;
  };
  const open = (options: { credentialsKey?: Uint8Array | undefined; reconcile?: boolean } = {}) => {
    opened ??= (async () => openCliStores(location(), { ...options, schedules: settings.schedules?.() }))();
    return opened;
  };
  return {
    /** Where the stores are, worked out once. */
    location,
    open,
    /** An output store that opens the stores when an output is first kept or read. */
    outputs: (): OutputStore => ({
      put: async (output) => (await open()).outputs.put(output),
      get: async (request) => (await open()).outputs.get(request),
    }),
    /** A todo store that opens the stores when a run's list is first read or written. */
    todos: (): TodoStore => ({
      read: async (key) => (await open()).todos.read(key),
      write: async (key, write) => (await open()).todos.write(key, write),
      purge: async (request) => (await open()).todos.purge(request),
    }),
    /** A memory store that opens the stores when a memory is first saved, searched, forgotten or listed. */
    memories: (): MemoryStore => ({
      save: async (owner, memory) => (await open()).memories.save(owner, memory),
      search: async (owner, search) => (await open()).memories.search(owner, search),
      forget: async (owner, id) => (await open()).memories.forget(owner, id),
      list: async (owner, page) => (await open()).memories.list(owner, page),
    }),
    /** A skill store that opens the stores when a skill is first written, read or listed. */
    skills: (): SkillStore => ({
      put: async (tenantId, draft) => (await open()).skills.put(tenantId, draft),
      get: async (tenantId, name, version) => (await open()).skills.get(tenantId, name, version),
      list: async (tenantId) => (await open()).skills.list(tenantId),
      versions: async (tenantId, name) => (await open()).skills.versions(tenantId, name),
      remove: async (tenantId, name, version) => (await open()).skills.remove(tenantId, name, version),
    }),
    /** A toolkit record store that opens the stores when a toolkit first adds, updates or reads a record. */
    records: (): ToolkitRecordStore => ({
      add: async (record) => (await open()).records.add(record),
      update: async (record) => (await open()).records.update(record),
      get: async (key) => (await open()).records.get(key),
      list: async (request) => (await open()).records.list(request),
      purge: async (request) => (await open()).records.purge(request),
    }),
    /** An artifact store that opens the stores when a file is first kept or read. */
    artifacts: (): ArtifactStore => ({
      put: async (input) => (await open()).artifacts.put(input),
      get: async (request) => (await open()).artifacts.get(request),
    }),
    /** An attachment store that opens the stores when an attachment is first added, listed or read. */
    attachments: (): AttachmentStore => ({
      add: async (owner, attachment) => (await open()).attachments.add(owner, attachment),
      list: async (reader, page) => (await open()).attachments.list(reader, page),
      read: async (reader, id) => (await open()).attachments.read(reader, id),
      remove: async (reader, id) => (await open()).attachments.remove(reader, id),
      purgeExpired: async (request) => (await open()).attachments.purgeExpired(request),
      reconcile: async () => (await open()).attachments.reconcile(),
    }),
    /** A schedule store that opens the stores when a schedule is first made, listed or cancelled. */
    schedules: (): ScheduleStore => ({
      create: async (owner, schedule) => (await open()).schedules.create(owner, schedule),
      get: async (scope, id) => (await open()).schedules.get(scope, id),
      list: async (scope, filter) => (await open()).schedules.list(scope, filter),
      cancel: async (scope, id) => (await open()).schedules.cancel(scope, id),
      claimDue: async (request) => (await open()).schedules.claimDue(request),
      complete: async (completion) => (await open()).schedules.complete(completion),
    }),
    /** A knowledge base that opens the stores when it is first searched or read. */
    knowledge: (): KnowledgeBase => ({
      begin: async (tenantId, source) => (await open()).knowledge.begin(tenantId, source),
      knownVectors: async (tenantId, id, model) => (await open()).knowledge.knownVectors(tenantId, id, model),
      stageVectors: async (tenantId, id, model, vectors) =>
        (await open()).knowledge.stageVectors(tenantId, id, model, vectors),
      interrupted: async (tenantId, id, reason) => (await open()).knowledge.interrupted(tenantId, id, reason),
      commit: async (tenantId, id, commit) => (await open()).knowledge.commit(tenantId, id, commit),
      get: async (tenantId, id) => (await open()).knowledge.get(tenantId, id),
      list: async (tenantId, page) => (await open()).knowledge.list(tenantId, page),
      remove: async (tenantId, id) => (await open()).knowledge.remove(tenantId, id),
      search: async (reader, query) => (await open()).knowledge.search(reader, query),
      readChunk: async (reader, id) => (await open()).knowledge.readChunk(reader, id),
    }),
    close: async () => {
      const stores = await opened?.catch(() => undefined);
      opened = undefined;
      await stores?.close();
    },
  };
}

export type LazyCliStores = ReturnType<typeof lazyCliStores>;

/**
 * The schedule floor from `TOOLREG_SCHEDULE_MIN_INTERVAL_MS` (at least 1000), for tests and demos that
 * cannot wait a minute between occurrences; the store's default floor when unset.
 */
export function scheduleOptionsFrom(env: Record<string, string | undefined>): ScheduleStoreOptions {
  const given = env.TOOLREG_SCHEDULE_MIN_INTERVAL_MS;
  if (given === undefined || given === "") return {};
  const minIntervalMs = Number(given);
  if (!Number.isSafeInteger(minIntervalMs) || minIntervalMs < 1_000)
    throw new UsageError(
      "TOOLREG_SCHEDULE_MIN_INTERVAL_MS must be a whole number of milliseconds, at least 1000",
    );
  return { minIntervalMs };
}
