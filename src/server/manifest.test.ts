import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../declaration/define-tool.js";
import type { AnyTool } from "../registry/registry.js";
import { ManifestCache, ManifestDocumentSchema, type ManifestSchema } from "./manifest.js";

const tool = (name: string, runtime?: string) =>
  defineTool({
    name,
    description: `Reads ${name}.`,
    category: "data",
    effect: "read",
    ...(runtime ? { runtime } : {}),
    input: z.object({}),
    run: () => "ok",
  }) as AnyTool;

const tools = [tool("any_runtime"), tool("runtime_two", ">=2.0.0 <3.0.0"), tool("runtime_three", "^3.1.0")];

function clock(start: string) {
  let now = new Date(start);
  return {
    now: () => now,
    advance: (ms: number) => {
      now = new Date(now.getTime() + ms);
    },
  };
}

function parsed(body: Buffer) {
  return ManifestDocumentSchema.parse(JSON.parse(body.toString()));
}

describe("ManifestCache", () => {
  it("lists only the tools whose runtime range the version satisfies; a tool with no range runs on any", () => {
    const cache = new ManifestCache();
    const names = (runtime: string | undefined) =>
      parsed(cache.get({ schema: "toolreg/3", viewKey: "v", runtime }, 1, () => tools).body).tools.map(
        (entry) => entry.name,
      );
    expect(names("2.3.0")).toEqual(["any_runtime", "runtime_two"]);
    expect(names("3.2.0")).toEqual(["any_runtime", "runtime_three"]);
    expect(names("3.2.0-beta.1")).toEqual(["any_runtime", "runtime_three"]);
    expect(names("1.0.0")).toEqual(["any_runtime"]);
    expect(names(undefined)).toEqual(["any_runtime", "runtime_two", "runtime_three"]);
  });

  it("carries $schema and the revision's generated time in both shapes, each a valid manifest document", () => {
    const time = clock("2026-01-02T03:04:05.000Z");
    const cache = new ManifestCache(time.now);
    for (const schema of ["toolreg/3", "toolreg/2"] as ManifestSchema[]) {
      const document = parsed(cache.get({ schema, viewKey: "v", runtime: undefined }, 7, () => tools).body);
      expect(document).toMatchObject({
        schema,
        $schema: "manifest.schema.json",
        generated: "2026-01-02T03:04:05.000Z",
        revision: 7,
      });
      time.advance(60_000);
    }
  });

  it("keeps a revision's bytes and ETag even when a view is rendered again, and moves on with the revision", () => {
    const time = clock("2026-01-02T03:04:05.000Z");
    const cache = new ManifestCache(time.now);
    const view = { schema: "toolreg/3" as const, viewKey: "v", runtime: "2.3.0" };
    const first = cache.get(view, 1, () => tools);
    time.advance(60_000);
    // Enough other views to push the first out of the bounded cache, so it is serialized anew.
    for (let index = 0; index < 600; index++) {
      cache.get({ ...view, viewKey: `other-${index}` }, 1, () => tools);
    }
    let rendered = 0;
    const again = cache.get(view, 1, () => {
      rendered++;
      return tools;
    });
    expect(rendered).toBe(1);
    expect(again.etag).toBe(first.etag);
    expect(again.body.equals(first.body)).toBe(true);

    const otherFilter = cache.get({ ...view, runtime: "3.2.0" }, 1, () => tools);
    expect(otherFilter.etag).not.toBe(first.etag);
    const next = cache.get(view, 2, () => tools);
    expect(parsed(next.body).generated).toBe("2026-01-02T03:05:05.000Z");
    // A new revision listing the same tools is the same manifest to a client; another listing is not.
    expect(next.etag).toBe(first.etag);
    expect(cache.get(view, 3, () => [...tools, tool("added")]).etag).not.toBe(first.etag);
    expect(cache.get({ ...view, schema: "toolreg/2" }, 3, () => tools).etag).not.toBe(first.etag);
  });

  it("gives instances serving the same catalogue the same weak ETag, whatever their revision and time", () => {
    const view = { schema: "toolreg/3" as const, viewKey: "v", runtime: undefined };
    const one = new ManifestCache(clock("2026-01-02T03:04:05.000Z").now).get(view, 4, () => tools);
    const other = new ManifestCache(clock("2026-05-06T07:08:09.000Z").now).get(view, 9, () => tools);
    expect(one.etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect(other.etag).toBe(one.etag);
    expect(other.body.equals(one.body)).toBe(false);
  });
});

describe("docs/manifest.schema.json", () => {
  it("is the JSON Schema generated from ManifestDocumentSchema (UPDATE_GOLDEN=1 rewrites it)", () => {
    const path = fileURLToPath(new URL("../../docs/manifest.schema.json", import.meta.url));
    const generated = z.toJSONSchema(ManifestDocumentSchema);
    if (process.env.UPDATE_GOLDEN === "1") {
      writeFileSync(path, JSON.stringify(generated));
      // In the layout `npm run lint` holds every JSON file to.
      execFileSync(fileURLToPath(new URL("../../node_modules/.bin/biome", import.meta.url)), [
        "format",
        "--write",
        path,
      ]);
    }
    expect(existsSync(path), `${path} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual(generated);
  });
});
