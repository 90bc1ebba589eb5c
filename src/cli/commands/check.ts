/** @module `toolreg check`: the catalogue linter; every problem at once, exit 1 if there is any. */
import type { Catalogue } from "../../check/catalogue.js";
import { checkCatalogue } from "../../check/check-catalogue.js";
import { describeSandbox, detectSandbox } from "../../tools/shell/index.js";
import type { CliIo } from "../cli-io.js";

export function checkCommand(catalogue: Catalogue, io: CliIo): number {
  const problems = checkCatalogue(catalogue);
  // Which of shell_exec's limits hold here, and over what; a note on stderr, as stdout is the catalogue's verdict.
  if (catalogue.tools.some((tool) => tool.name === "shell_exec"))
    io.stderr(`${describeSandbox(detectSandbox())}\n`);
  io.stdout(`${upstreamDeduplication(catalogue)}\n`);
  for (const problem of problems) io.stdout(`${problem.rule}: ${problem.subject} ${problem.message}\n`);
  if (problems.length > 0) {
    io.stderr(
      `${problems.length} problem${problems.length === 1 ? "" : "s"} in a catalogue of ${catalogue.tools.length} tools\n`,
    );
    return 1;
  }
  io.stdout(`catalogue ok: ${catalogue.tools.length} tools\n`);
  return 0;
}

/**
 * Which tools claim that their provider deduplicates on the idempotency key: the only ones run again, under
 * the same key, when a run's outcome is lost. A claim a person should be able to read and question.
 */
function upstreamDeduplication(catalogue: Catalogue): string {
  const claimed = catalogue.tools.filter((tool) => tool.upstreamDeduplicates).map((tool) => tool.name);
  const who = claimed.length > 0 ? claimed.sort().join(", ") : "none";
  return `upstream deduplication: ${who} (a lost run of these runs again under its key; of any other write it is reported unknown)`;
}
