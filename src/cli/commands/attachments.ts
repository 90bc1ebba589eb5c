/**
 * @module `toolreg attachments add|list|remove`: files for the agents of the --principal in the --tenant, on
 * the local state, as `toolreg call` acts for them. Without --run an attachment is read in every run of its
 * principal (each `toolreg call` is a run of its own); with it, only in that run.
 */
import { readFileSync, statSync } from "node:fs";
import { basename, resolve } from "node:path";
import type { Command } from "commander";
import { attachmentMediaType, isMediaType } from "../../ports/attachment-media-type.js";
import {
  type AddOutcome,
  ATTACHMENT_LIMITS,
  type Attachment,
  type AttachmentReader,
  type AttachmentStore,
} from "../../ports/attachment-store.js";
import { IDENTIFIER } from "../../seam/context.js";
import { type CliIo, UsageError } from "../cli-io.js";
import type { GlobalOptions } from "../cli-state.js";
import type { LazyCliStores } from "../cli-stores.js";
import { formatJson, formatTable } from "../format.js";

export interface AttachmentAddOptions {
  run?: string;
  name?: string;
  mediaType?: string;
  json?: boolean;
}

/** Who acts: --tenant and --principal, checked as `toolreg call` checks them; --run when given. */
function actor(globals: GlobalOptions, run: string | undefined): AttachmentReader & { run?: string } {
  for (const [flag, value] of [
    ["--tenant", globals.tenant],
    ["--principal", globals.principal],
    ["--run", run],
  ] as const) {
    if (value !== undefined && !IDENTIFIER.test(value))
      throw new UsageError(`${flag} "${value}" is not an identifier (letters, digits, . _ : @ / -)`);
  }
  // No run named: only attachments of every run match (no run has the empty id).
  return { tenantId: globals.tenant, principalId: globals.principal, runId: run ?? "" };
}

const refusal = (outcome: Exclude<AddOutcome, { added: true }>): string =>
  ({
    too_large: `an attachment is at most ${outcome.limit} bytes`,
    quota: `the tenant already keeps ${outcome.limit} bytes of attachments: remove some (toolreg attachments remove) or wait for old ones to expire`,
    principal_quota: `--principal already keeps ${outcome.limit} bytes of attachments, its share of the tenant's: remove some (toolreg attachments remove) or wait for old ones to expire`,
    bad_name: `a name is 1 to ${outcome.limit} characters, with no folder, / or \\, and no control character: give one with --name`,
  })[outcome.reason];

export async function attachmentsAdd(
  store: AttachmentStore,
  globals: GlobalOptions,
  file: string,
  options: AttachmentAddOptions,
  io: CliIo,
): Promise<number> {
  const who = actor(globals, options.run);
  if (options.mediaType !== undefined && !isMediaType(options.mediaType))
    throw new UsageError(`--media-type "${options.mediaType}" is not a media type like text/csv`);
  const path = resolve(io.cwd, file);
  let bytes: Buffer;
  try {
    // Refused before it is read: a file over the cap is never held in memory.
    const { size } = statSync(path);
    if (size > ATTACHMENT_LIMITS.bytes) {
      io.stderr(
        `${file}: ${refusal({ added: false, reason: "too_large", limit: ATTACHMENT_LIMITS.bytes })}\n`,
      );
      return 1;
    }
    bytes = readFileSync(path);
  } catch (error) {
    throw new UsageError(`${file}: ${(error as Error).message}`);
  }
  const name = options.name ?? basename(path);
  const outcome = await store.add(
    { tenantId: who.tenantId, principalId: who.principalId, runId: options.run },
    { name, mediaType: options.mediaType ?? attachmentMediaType(name), bytes, now: Date.now() },
  );
  if (!outcome.added) {
    io.stderr(`${file}: ${refusal(outcome)}\n`);
    return 1;
  }
  const { attachment } = outcome;
  if (options.json) io.stdout(formatJson(attachment));
  else
    io.stdout(
      `Added ${attachment.id} "${attachment.name}" (${attachment.mediaType}, ${attachment.size} bytes) for ${options.run ? `run ${options.run}` : "every run"} of ${who.principalId}, kept until ${new Date(attachment.expiresAt).toISOString()}\n`,
    );
  return 0;
}

export async function attachmentsList(
  store: AttachmentStore,
  globals: GlobalOptions,
  options: { run?: string; json?: boolean },
  io: CliIo,
): Promise<number> {
  const reader = actor(globals, options.run);
  const attachments: Attachment[] = [];
  let after: string | undefined;
  do {
    const page = await store.list(reader, { limit: ATTACHMENT_LIMITS.listPage, after });
    attachments.push(...page.attachments);
    after = page.next;
  } while (after !== undefined);
  if (options.json) {
    io.stdout(formatJson(attachments));
    return 0;
  }
  io.stdout(
    formatTable(
      ["ID", "NAME", "TYPE", "BYTES", "RUN", "UPLOADED"],
      attachments.map((a) => [
        a.id,
        JSON.stringify(a.name),
        a.mediaType,
        String(a.size),
        a.runId ?? "(every run)",
        new Date(a.createdAt).toISOString(),
      ]),
    ),
  );
  return 0;
}

export async function attachmentsRemove(
  store: AttachmentStore,
  globals: GlobalOptions,
  id: string,
  options: { run?: string },
  io: CliIo,
): Promise<number> {
  const reader = actor(globals, options.run);
  if (!(await store.remove(reader, id)))
    throw new UsageError(
      `no attachment ${id} of ${reader.principalId} in tenant ${reader.tenantId}${options.run ? ` and run ${options.run}` : " (one of a run needs --run)"}`,
    );
  io.stdout(`Removed ${id}\n`);
  return 0;
}

export interface AttachmentCommandHost {
  io: CliIo;
  globals(): GlobalOptions;
  stores: LazyCliStores;
  setExitCode(code: number): void;
}

/** `toolreg attachments add|list|remove` on the command's stores, for --tenant and --principal. */
export function addAttachmentCommands(program: Command, host: AttachmentCommandHost): void {
  const { io } = host;
  const store = () => host.stores.attachments();
  const attachments = program
    .command("attachments")
    .description("files for your agents, which list_attachments and read_attachment read");
  attachments
    .command("add")
    .description("attach a file (at most 25 MiB) for every run of --principal, or for one --run")
    .argument("<file>", "the file to attach")
    .option(
      "--run <id>",
      "only the run of this id reads it: a run of `toolreg serve` named so (each `toolreg call` is a fresh run, which never does)",
    )
    .option("--name <name>", "the attachment's name (else the file's)")
    .option("--media-type <type>", "its media type (else from the name's extension)")
    .option("--json", "print JSON")
    .action(async (file: string, options: AttachmentAddOptions) => {
      host.setExitCode(await attachmentsAdd(store(), host.globals(), file, options, io));
    });
  attachments
    .command("list")
    .description("list --principal's attachments of every run (and of --run), newest first")
    .option("--run <id>", "include this run's attachments")
    .option("--json", "print JSON")
    .action(async (options: { run?: string; json?: boolean }) => {
      host.setExitCode(await attachmentsList(store(), host.globals(), options, io));
    });
  attachments
    .command("remove")
    .description("remove one of --principal's attachments")
    .argument("<id>", "the attachment's id, from attachments list")
    .option("--run <id>", "the run of a run's attachment")
    .action(async (id: string, options: { run?: string }) => {
      host.setExitCode(await attachmentsRemove(store(), host.globals(), id, options, io));
    });
}
