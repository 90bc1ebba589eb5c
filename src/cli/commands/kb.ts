/** @module `toolreg kb add|list|remove`: the tenant's knowledge base on the local state. */
import { readFileSync } from "node:fs";
import { basename, extname, resolve } from "node:path";
import type { Command } from "commander";
import { EgressRefusedError } from "../../egress/egress-refused-error.js";
import { IngestError } from "../../knowledge/ingest.js";
import {
  KNOWLEDGE_LIMITS,
  type KnowledgeAddition,
  type KnowledgeBase,
  type KnowledgeEmbedder,
  type KnowledgeIntake,
  type KnowledgeSource,
  SupersededIngestError,
} from "../../ports/knowledge-base.js";
import { type CliIo, UsageError } from "../cli-io.js";
import { cliKnowledgeIntake } from "../cli-knowledge.js";
import type { GlobalOptions } from "../cli-state.js";
import type { LazyCliStores } from "../cli-stores.js";
import { egressAllowing } from "../egress-allow.js";
import { formatJson, formatTable } from "../format.js";

const MEDIA_TYPES: Record<string, string> = {
  ".md": "text/markdown",
  ".markdown": "text/markdown",
  ".txt": "text/plain",
  ".html": "text/html",
  ".htm": "text/html",
  ".pdf": "application/pdf",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
};

export interface KbAddOptions {
  text?: string;
  title?: string;
  subject: string[];
  id?: string;
}

export async function kbAdd(
  intake: KnowledgeIntake,
  tenantId: string,
  target: string | undefined,
  options: KbAddOptions,
  io: CliIo,
): Promise<number> {
  if ((target === undefined) === (options.text === undefined))
    throw new UsageError("name one FILE or URL, or give --text, to add");
  const common = {
    // None named: a new source is the tenant's, a re-index keeps the source's readers.
    ...(options.subject.length > 0 ? { authSubjects: options.subject } : {}),
    ...(options.title ? { title: options.title } : {}),
    ...(options.id ? { sourceId: options.id } : {}),
  };
  let addition: KnowledgeAddition;
  if (options.text !== undefined) addition = { from: "text", text: options.text, ...common };
  else if (/^https?:\/\//i.test(target as string))
    addition = { from: "url", url: target as string, ...common };
  else {
    const path = resolve(io.cwd, target as string);
    const mediaType = MEDIA_TYPES[extname(path).toLowerCase()];
    if (!mediaType) throw new UsageError(`${target}: add a ${Object.keys(MEDIA_TYPES).join(", ")} file`);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new UsageError(`${target}: ${(error as Error).message}`);
    }
    addition = { from: "file", name: basename(path), mediaType, bytes, ...common };
  }
  try {
    const { source, embedded } = await intake.add(tenantId, addition);
    io.stdout(
      `${options.id ? "Re-indexed" : "Added"} ${source.id} "${source.title}": ${source.chunkCount} chunks (${embedded} embedded), readable by ${source.authSubjects.join(", ")}\n`,
    );
    // A truncated document is indexed, and said so.
    if (source.error) io.stderr(`Note: ${source.error}\n`);
    return 0;
  } catch (error) {
    if (error instanceof RangeError || error instanceof EgressRefusedError)
      throw new UsageError(error.message);
    if (error instanceof IngestError) {
      io.stderr(`${error.message} (toolreg kb add … --id ${error.sourceId})\n`);
      return 1;
    }
    if (error instanceof SupersededIngestError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
}

export async function kbList(
  knowledge: KnowledgeBase,
  tenantId: string,
  options: { json?: boolean },
  io: CliIo,
): Promise<number> {
  // Every page: the operator's listing is the whole tenant, not its newest hundred.
  const sources: KnowledgeSource[] = [];
  let after: string | undefined;
  do {
    const page = await knowledge.list(tenantId, { limit: KNOWLEDGE_LIMITS.listPage, after });
    sources.push(...page.sources);
    after = page.next;
  } while (after !== undefined);
  if (options.json) {
    io.stdout(formatJson(sources));
    return 0;
  }
  io.stdout(
    formatTable(
      ["ID", "TITLE", "KIND", "STATUS", "CHUNKS", "READERS", "ORIGIN"],
      sources.map((s) => [
        s.id,
        s.title,
        s.kind,
        s.status,
        String(s.chunkCount),
        s.authSubjects.join(","),
        s.origin,
      ]),
    ),
  );
  return 0;
}

export async function kbRemove(
  knowledge: KnowledgeBase,
  tenantId: string,
  id: string,
  io: CliIo,
): Promise<number> {
  if (!(await knowledge.remove(tenantId, id)))
    throw new UsageError(`no knowledge source ${id} in tenant ${tenantId}`);
  io.stdout(`Removed ${id}\n`);
  return 0;
}

export interface KbCommandHost {
  io: CliIo;
  globals(): GlobalOptions;
  stores: LazyCliStores;
  knowledgeEmbedder(): Promise<KnowledgeEmbedder>;
  setExitCode(code: number): void;
}

/** `toolreg kb add|list|remove` on the command's stores, for the --tenant the command acts for. */
export function addKbCommands(program: Command, host: KbCommandHost): void {
  const { io } = host;
  const kb = program
    .command("kb")
    .description("the tenant's knowledge base, which search_knowledge searches");
  kb.command("add")
    .description(
      "add a markdown, text or HTML file, a URL, or --text to the knowledge base (again with --id: re-index)",
    )
    .argument(
      "[file-or-url]",
      "a file (.md, .txt, .html; .pdf and .docx with a document extractor) or an http(s) URL",
    )
    .option("--text <text>", "add this text instead of a file or URL")
    .option("--title <title>", "the source's title (else the document's own, its file name or URL)")
    .option(
      "--subject <subject>",
      "who may find it: tenant (everyone, the default), principal:<id> or scope:<scope>; repeatable",
      (value: string, previous: string[]) => [...previous, value],
      [] as string[],
    )
    .option("--id <source-id>", "re-index this source, resuming an interrupted add")
    .action(async (target: string | undefined, options: KbAddOptions) => {
      const stores = await host.stores.open();
      const policy = egressAllowing(
        host.globals().egressAllow ?? [],
        (entry) => new UsageError(`--egress-allow ${entry}`),
      );
      const intake = cliKnowledgeIntake({
        knowledge: stores.knowledge,
        embedder: await host.knowledgeEmbedder(),
        attachments: stores.attachments,
        egressPolicy: policy,
      });
      try {
        host.setExitCode(await kbAdd(intake, host.globals().tenant, target, options, io));
      } finally {
        await intake.close();
      }
    });
  kb.command("list")
    .description("list the tenant's knowledge sources, newest first")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean }) => {
      host.setExitCode(
        await kbList((await host.stores.open()).knowledge, host.globals().tenant, options, io),
      );
    });
  kb.command("remove")
    .description("remove a knowledge source with its chunks")
    .argument("<source-id>", "the source's id, from kb list")
    .action(async (id: string) => {
      host.setExitCode(await kbRemove((await host.stores.open()).knowledge, host.globals().tenant, id, io));
    });
}
