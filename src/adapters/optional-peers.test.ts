import { readdirSync, readFileSync } from "node:fs";
import { join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SOURCE_ROOT = fileURLToPath(new URL("../", import.meta.url));
const SOURCES = readdirSync(SOURCE_ROOT, { recursive: true, encoding: "utf8" }).filter((path) =>
  path.endsWith(".ts"),
);

/** Each framework, and the one folder allowed to import it: a user without it must still load the rest. */
const PEERS = [
  { pattern: /(?:from|import)\s*\(?\s*["']ai(?:\/[^"']*)?["']/, folder: join("adapters", "ai-sdk") + sep },
  {
    pattern: /(?:from|import)\s*\(?\s*["']@openai\/agents[^"']*["']/,
    folder: join("adapters", "openai-agents") + sep,
  },
  {
    pattern: /(?:from|import)\s*\(?\s*["']@langchain\/[^"']*["']/,
    folder: join("adapters", "langchain") + sep,
  },
  {
    pattern: /(?:from|import)\s*\(?\s*["']langchain(?:\/[^"']*)?["']/,
    folder: join("adapters", "langchain") + sep,
  },
  { pattern: /(?:from|import)\s*\(?\s*["']@energetic-ai\/[^"']*["']/, folder: join("embeddings") + sep },
];

describe("the frameworks, optional peers", () => {
  for (const { pattern, folder } of PEERS) {
    it(`${folder} alone imports its framework`, () => {
      const importers = SOURCES.filter(
        (path) => !path.startsWith(folder) && pattern.test(readFileSync(join(SOURCE_ROOT, path), "utf8")),
      );
      expect(importers).toEqual([]);
      expect(
        SOURCES.some(
          (path) => path.startsWith(folder) && pattern.test(readFileSync(join(SOURCE_ROOT, path), "utf8")),
        ),
      ).toBe(true);
    });
  }
});
