import { describe, expect, it } from "vitest";
import { entryTokens, loadO200kCounter } from "../../src/catalog/budget/index.js";
import { renderTools } from "../../src/catalog/render-catalog.js";
import { defaultCatalogue } from "../../src/check/default-catalogue.js";

interface Parameters {
  properties?: Record<string, { type?: unknown }>;
  required?: string[];
}

describe("the shipped catalogue in compact form", () => {
  const tools = defaultCatalogue().tools;

  it("keeps every parameter, its type and its requiredness", () => {
    const full = renderTools("openai-chat", tools);
    const compact = renderTools("openai-chat", tools, { detail: "compact" });
    compact.forEach((entry, i) => {
      const name = entry.function.name;
      const before = full[i]?.function.parameters as Parameters;
      const after = entry.function.parameters as Parameters;
      expect(Object.keys(after.properties ?? {}), name).toEqual(Object.keys(before.properties ?? {}));
      for (const [parameter, schema] of Object.entries(before.properties ?? {})) {
        // A union without a type of its own may become a list of types; a stated type stays as it is.
        if (schema.type === undefined) continue;
        expect(after.properties?.[parameter]?.type, `${name}.${parameter}`).toEqual(schema.type);
      }
      expect(after.required, name).toEqual(before.required);
    });
  });

  it("averages at most 50 tokens an entry as OpenAI's models read it, against over 100 in full", async () => {
    const counter = await loadO200kCounter();
    const average = (detail: "full" | "compact") =>
      tools.reduce((sum, tool) => sum + entryTokens("openai-chat", tool, counter, { detail }), 0) /
      tools.length;
    expect(average("compact")).toBeLessThanOrEqual(50);
    expect(average("full")).toBeGreaterThan(100);
  });
});
