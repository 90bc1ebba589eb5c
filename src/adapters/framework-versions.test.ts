import { createRequire } from "node:module";
import { join, sep } from "node:path";
import { describe, expect, it } from "vitest";

/** Read at run time, so a test file does not need the JSON module setting to name them. */
const AI_PACKAGE = "ai/package.json";
const nodeRequire = createRequire(import.meta.url);

/** The version Node resolves for `name`, read beside the entry it resolves (some export no package.json). */
function nodeResolvedVersion(name: string): string {
  const entry = nodeRequire.resolve(name);
  const folder = join("node_modules", name, sep);
  const at = entry.lastIndexOf(folder);
  if (at < 0) throw new Error(`${name} resolved outside a node_modules folder: ${entry}`);
  return (nodeRequire(join(entry.slice(0, at + folder.length), "package.json")) as { version: string })
    .version;
}

describe("the framework versions the adapters are tested against", () => {
  it("are the ones the run expects, and `ai` resolves alike for vite (the tests) and for Node (what it loads)", async () => {
    const viaVite = ((await import(AI_PACKAGE)) as { default: { version: string } }).default.version;
    const versions: Record<string, string> = {
      ai: nodeResolvedVersion("ai"),
      "@openai/agents-core": nodeResolvedVersion("@openai/agents-core"),
    };
    console.log(
      `frameworks: node ${process.version}, ${Object.entries(versions)
        .map(([name, version]) => `${name} ${version}`)
        .join(", ")}`,
    );
    expect(viaVite).toBe(versions.ai);
    // scripts/adapters-node24.sh names what it installed: "ai@7.0.173 @openai/agents-core@0.20.0".
    for (const expected of process.env.ADAPTERS_EXPECT_VERSIONS?.split(" ") ?? []) {
      const at = expected.lastIndexOf("@");
      expect(`${expected.slice(0, at)}@${versions[expected.slice(0, at)]}`).toBe(expected);
    }
  });
});
