import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ManifestDocumentSchema } from "../../src/server/manifest.js";
import { type Fixture, startFixture } from "./server-fixture.js";

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.close());

async function manifest(query: string, key: string) {
  const response = await f.call(`/manifest.json${query}`, { key });
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  const document = ManifestDocumentSchema.parse(JSON.parse(bytes.toString()));
  return { etag: response.headers.get("etag") as string, bytes, document };
}

const names = async (query: string, key: string) =>
  (await manifest(query, key)).document.tools.map((tool) => tool.name);

describe("GET /manifest.json?runtime=", () => {
  it("lists only the tools that run on the host's runtime, within what the caller may see", async () => {
    expect(await names("?runtime=2.3.0", f.keys.agentB)).toContain("read_ledger");
    expect(await names("?runtime=3.1.0", f.keys.agentB)).not.toContain("read_ledger");
    expect(await names("?runtime=3.1.0", f.keys.agentB)).toContain("calculate");
    expect(await names("?runtime=2.3.0&schema=toolreg/2", f.keys.agentB)).toContain("read_ledger");
    expect(await names("?runtime=3.1.0&schema=toolreg/2", f.keys.agentB)).not.toContain("read_ledger");
    // Tenant a may not use finance tools: the runtime filter narrows its view, never widens it.
    expect(await names("?runtime=2.3.0", f.keys.agentA)).not.toContain("read_ledger");
    expect(await names("", f.keys.agentB)).toEqual(await names("?runtime=2.3.0", f.keys.agentB));
  });

  it("refuses a version that is not semver with a problem naming it", async () => {
    const response = await f.call("/manifest.json?runtime=newest", { key: f.keys.agentB });
    expect(response.status).toBe(400);
    const problem = (await response.json()) as { type: string; detail: string };
    expect(problem.type).toBe("urn:toolreg:problem:invalid_query");
    expect(problem.detail).toContain('runtime "newest" is not a semver version');
    expect((await f.call("/manifest.json?runtime=", { key: f.keys.agentB })).status).toBe(400);
  });

  it("gives one revision and one filter the same bytes and ETag, and another filter another ETag", async () => {
    const first = await manifest("?runtime=2.3.0", f.keys.agentB);
    const again = await manifest("?runtime=2.3.0", f.keys.agentB);
    expect(again.etag).toBe(first.etag);
    expect(again.bytes.equals(first.bytes)).toBe(true);
    // The same version written another way is the same view.
    expect((await manifest("?runtime=v2.3.0", f.keys.agentB)).etag).toBe(first.etag);
    expect((await manifest("?runtime=3.1.0", f.keys.agentB)).etag).not.toBe(first.etag);
    const cached = await f.call("/manifest.json?runtime=2.3.0", {
      key: f.keys.agentB,
      headers: { "if-none-match": first.etag },
    });
    expect(cached.status).toBe(304);
    // Compared weakly: the tag without its W/ prefix, or in a list, matches too.
    for (const match of [first.etag.slice(2), `"x", ${first.etag}`]) {
      const again = await f.call("/manifest.json?runtime=2.3.0", {
        key: f.keys.agentB,
        headers: { "if-none-match": match },
      });
      expect(again.status).toBe(304);
    }
    const otherFilter = await f.call("/manifest.json?runtime=3.1.0", {
      key: f.keys.agentB,
      headers: { "if-none-match": first.etag },
    });
    expect(otherFilter.status).toBe(200);
  });
});

describe("the manifest document", () => {
  it("carries $schema and generated in both shapes, one generated time per revision", async () => {
    const current = (await manifest("", f.keys.agentA)).document;
    const legacy = (await manifest("?schema=toolreg/2", f.keys.agentA)).document;
    for (const document of [current, legacy]) {
      expect(document.$schema).toBe("manifest.schema.json");
      expect(Date.parse(document.generated)).not.toBeNaN();
    }
    expect(legacy.generated).toBe(current.generated);
  });

  it("names a JSON Schema that is served next to it, without a key, and is the one in docs/", async () => {
    const { document } = await manifest("", f.keys.agentA);
    const schemaUrl = new URL(document.$schema, `${f.url}/manifest.json`);
    const response = await fetch(schemaUrl);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/schema+json");
    const golden = JSON.parse(
      readFileSync(new URL("../../docs/manifest.schema.json", import.meta.url), "utf8"),
    );
    expect(await response.json()).toEqual(golden);
  });
});
