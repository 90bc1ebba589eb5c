/**
 * @module The fixture upstream MCP server as an `--mcp-config` names it: one stdio server, `fixture`,
 * started by whatever imports it, offering the tools of a spec file the test rewrites to change them.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const FIXTURE = fileURLToPath(new URL("../fixtures/mcp-upstream/upstream-server.mjs", import.meta.url));

/** One tool as the fixture lists it (upstream-server.mjs): `inputSchema` defaults to `{ text }`. */
export interface FixtureTool {
  name: string;
  description: string;
  annotations?: Record<string, unknown>;
  inputSchema?: Record<string, unknown>;
}

/** Writes `mcp.json` in `folder`: the fixture, reading `spec.json` beside it. */
export function writeFixtureConfig(folder: string): void {
  writeFileSync(
    join(folder, "mcp.json"),
    JSON.stringify({
      servers: [{ name: "fixture", command: process.execPath, args: [FIXTURE, "spec.json"] }],
    }),
  );
}

/** What the fixture lists from now on, at its next tools/list. */
export function offerTools(folder: string, tools: readonly FixtureTool[]): void {
  writeFileSync(join(folder, "spec.json"), JSON.stringify({ tools }));
}
