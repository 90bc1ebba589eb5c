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
