/** @module What really ran: the counting catalogue's log, one line per run's start and end. */
import { existsSync, readFileSync } from "node:fs";

export interface Execution {
  key: string;
  label: string;
  phase: "start" | "end";
}

export function executions(log: string): Execution[] {
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [key, label, phase] = line.split("\t");
      return { key: key ?? "", label: label ?? "", phase: phase as Execution["phase"] };
    });
}

/** How many runs of this key started. */
export function runsOf(log: string, key: string): number {
  return executions(log).filter((execution) => execution.key === key && execution.phase === "start").length;
}
