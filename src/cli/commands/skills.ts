/**
 * @module `toolreg skills add|list|show|remove`: the skills of the --tenant, on the local state. `add` writes
 * a folder's SKILL.md and files as the next version (version 1 of a new skill), written by --principal.
 */
import type { Command } from "commander";
import { fitSkillCatalog } from "../../catalog/budget/skill-catalog.js";
import { loadO200kCounter } from "../../catalog/budget/token-counter.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { SKILL_LIMITS, type SkillStore } from "../../ports/skill-store.js";
import { IDENTIFIER } from "../../seam/context.js";
import { type CliIo, UsageError } from "../cli-io.js";
import type { GlobalOptions } from "../cli-state.js";
import type { LazyCliStores } from "../cli-stores.js";
import { formatJson, formatTable } from "../format.js";
import { readSkillFolder } from "../skill-folder.js";

/** The tenant and principal, checked as `toolreg call` checks them. */
function actor(globals: GlobalOptions): { tenantId: string; principalId: string } {
  for (const [flag, value] of [
    ["--tenant", globals.tenant],
    ["--principal", globals.principal],
  ] as const) {
    if (!IDENTIFIER.test(value))
      throw new UsageError(`${flag} "${value}" is not an identifier (letters, digits, . _ : @ / -)`);
  }
  return { tenantId: globals.tenant, principalId: globals.principal };
}

/** A version number as typed, or undefined when none was. */
function versionOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const version = Number(value);
  if (!Number.isSafeInteger(version) || version < 1 || version > SKILL_LIMITS.versionNumber)
    throw new UsageError("--version must be a whole number from 1");
  return version;
}

/** A store's refusal (a bound, a cap) as the operator reads it. */
async function refusedAsUsage<T>(work: Promise<T>, what: string): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (ToolFailure.isInstance(error)) throw new UsageError(`${what}: ${error.message}`);
    throw error;
  }
}

export async function skillsAdd(
  store: SkillStore,
  globals: GlobalOptions,
  directory: string,
  io: CliIo,
  json = false,
) {
  const { tenantId, principalId } = actor(globals);
  const draft = await refusedAsUsage(
    Promise.resolve().then(() => readSkillFolder(directory, io.cwd)),
    directory,
  );
  const written = await refusedAsUsage(
    store.put(tenantId, { ...draft, createdBy: principalId, now: Date.now() }),
    directory,
  );
  if (json)
    io.stdout(
      formatJson({ name: written.name, version: written.version, files: Object.keys(written.files) }),
    );
  else
    io.stdout(
      `Added skill ${written.name} version ${written.version} (${Object.keys(written.files).length} files) for tenant ${tenantId}\n`,
    );
  return 0;
}

export async function skillsList(
  store: SkillStore,
  globals: GlobalOptions,
  options: { json?: boolean; budget?: string },
  io: CliIo,
): Promise<number> {
  const skills = await store.list(actor(globals).tenantId);
  if (options.budget !== undefined) {
    const maxTokens = Number(options.budget);
    if (!Number.isInteger(maxTokens) || maxTokens <= 0)
      throw new UsageError("--budget must be a positive whole number of tokens");
    const fitted = fitSkillCatalog(skills, { budget: { maxTokens }, counter: await loadO200kCounter() });
    io.stdout(fitted.text === "" ? "" : `${fitted.text}\n`);
    io.stderr(
      `${fitted.listed.length} of ${skills.length} skills, ${fitted.usedTokens} of ${maxTokens} tokens\n`,
    );
    return 0;
  }
  if (options.json) io.stdout(formatJson(skills));
  else if (skills.length === 0) io.stdout("No skills yet: add one with toolreg skills add DIR\n");
  else
    io.stdout(
      formatTable(
        ["NAME", "VERSION", "VERSIONS", "DESCRIPTION"],
        skills.map((skill) => [
          skill.name,
          String(skill.version),
          String(skill.versions),
          skill.description.slice(0, 80),
        ]),
      ),
    );
  return 0;
}

export async function skillsShow(
  store: SkillStore,
  globals: GlobalOptions,
  name: string,
  options: { version?: string; json?: boolean },
  io: CliIo,
): Promise<number> {
  const version = versionOf(options.version);
  const skill = await store.get(actor(globals).tenantId, name, version);
  if (!skill)
    throw new UsageError(
      `no skill ${name}${version === undefined ? "" : ` version ${version}`} in tenant ${globals.tenant}`,
    );
  if (options.json) io.stdout(formatJson(skill));
  else
    io.stdout(
      `${skill.name} version ${skill.version}, written by ${skill.createdBy} at ${new Date(skill.createdAt).toISOString()}\n${skill.description}\n${Object.keys(skill.files).length > 0 ? `files: ${Object.keys(skill.files).join(", ")}\n` : ""}\n${skill.body}${skill.body.endsWith("\n") ? "" : "\n"}`,
    );
  return 0;
}

export async function skillsRemove(
  store: SkillStore,
  globals: GlobalOptions,
  name: string,
  options: { version?: string },
  io: CliIo,
): Promise<number> {
  const version = versionOf(options.version);
  const removed = await store.remove(actor(globals).tenantId, name, version);
  if (removed === 0)
    throw new UsageError(
      `no skill ${name}${version === undefined ? "" : ` version ${version}`} in tenant ${globals.tenant}`,
    );
  io.stdout(`Removed ${removed} ${removed === 1 ? "version" : "versions"} of skill ${name}\n`);
  return 0;
}

export interface SkillCommandHost {
  io: CliIo;
  globals(): GlobalOptions;
  stores: LazyCliStores;
  setExitCode(code: number): void;
}

/** `toolreg skills add|list|show|remove` on the command's stores, for --tenant. */
export function addSkillCommands(program: Command, host: SkillCommandHost): void {
  const { io } = host;
  const store = () => host.stores.skills();
  const skills = program
    .command("skills")
    .description("the tenant's skills, which load_skill loads and MCP clients see as prompts");
  skills
    .command("add")
    .description("add a skill folder (SKILL.md and its files) as the skill's next version")
    .argument("<dir>", "the skill's folder, named as the skill")
    .option("--json", "print JSON")
    .action(async (directory: string, options: { json?: boolean }) => {
      host.setExitCode(await skillsAdd(store(), host.globals(), directory, io, options.json));
    });
  skills
    .command("list")
    .description("list the tenant's skills, or with --budget the catalogue section a prompt would hold")
    .option("--budget <tokens>", "fit the catalogue into this many tokens (o200k), saying what was left out")
    .option("--json", "print JSON")
    .action(async (options: { json?: boolean; budget?: string }) => {
      host.setExitCode(await skillsList(store(), host.globals(), options, io));
    });
  skills
    .command("show")
    .description("show a skill's latest version, or --version N")
    .argument("<name>", "the skill's name")
    .option("--version <n>", "a version number")
    .option("--json", "print JSON")
    .action(async (name: string, options: { version?: string; json?: boolean }) => {
      host.setExitCode(await skillsShow(store(), host.globals(), name, options, io));
    });
  skills
    .command("remove")
    .description("remove a skill (every version), or one --version")
    .argument("<name>", "the skill's name")
    .option("--version <n>", "only this version")
    .action(async (name: string, options: { version?: string }) => {
      host.setExitCode(await skillsRemove(store(), host.globals(), name, options, io));
    });
}
