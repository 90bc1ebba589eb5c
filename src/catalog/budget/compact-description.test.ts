import { describe, expect, it } from "vitest";
import { compactDescription } from "./compact-description.js";

describe("compactDescription", () => {
  it("keeps the first sentence, then the first clause, and cuts at a word", () => {
    expect(compactDescription("Reads a page. Then it does more.")).toBe("Reads a page.");
    expect(compactDescription("Searches tools by task (e.g. read a page). Returns matches.")).toBe(
      "Searches tools by task (e.g. read a page).",
    );
    expect(
      compactDescription("Lists customer records in the crm workspace, matching a query given by the user."),
    ).toBe("Lists customer records in the crm workspace.");
    // A dash breaks a clause with a space before it, which the full stop does not keep.
    expect(
      compactDescription(
        "Creates a downloadable file — a CSV table, a Markdown document or a PDF — and returns its id.",
      ),
    ).toBe("Creates a downloadable file.");
    const long = compactDescription(`Does ${"many things and ".repeat(10)}more`);
    expect(long.length).toBeLessThanOrEqual(61);
    expect(long.endsWith("…")).toBe(true);
  });

  it("drops the asides of a long sentence and never leaves a parenthesis open", () => {
    expect(
      compactDescription(
        "Returns the current date and time (ISO 8601 UTC, epoch milliseconds, weekday and local time " +
          "in an optional IANA time zone). Use it whenever an answer depends on today's date.",
      ),
    ).toBe("Returns the current date and time.");
    expect(
      compactDescription(
        "Parses CSV (or TSV, or another (one-character) delimiter) given as text into rows: objects keyed by the header.",
      ),
    ).toBe("Parses CSV given as text into rows.");
    const cut = compactDescription(
      "Sends a request with optional headers and query parameters (GET or HEAD only, never a write) and returns it",
    );
    expect(cut).toBe("Sends a request with optional headers and query parameters…");
    expect(
      compactDescription("Opens an aside (that goes on and on and on and on without an end in sight"),
    ).toBe("Opens an aside that goes on and on and on and on without…");
  });

  it("ends no sentence and breaks no clause inside parentheses", () => {
    expect(compactDescription("Lists files (recursively. Hidden ones too) in a folder.")).toBe(
      "Lists files (recursively. Hidden ones too) in a folder.",
    );
    expect(
      compactDescription(
        "Returns the current date and time (ISO 8601 UTC, epoch milliseconds and weekday. Then local time). Use it.",
      ),
    ).toBe("Returns the current date and time.");
    expect(
      compactDescription(
        "Finds rows in a table of the warehouse (by id, name: or tag), and sorts them by date or by size",
      ),
    ).toBe("Finds rows in a table of the warehouse.");
  });

  it("keeps a sentence that is all aside, and a call's parentheses", () => {
    expect(
      compactDescription(
        "(Deprecated; use other_tool instead of this one, which is kept only for old callers.)",
      ),
    ).toBe("Deprecated; use other_tool instead of this one, which is…");
    expect(
      compactDescription(
        "(Internal) (Do not call directly unless told to by an administrator of this deployment)",
      ),
    ).toBe("(Internal) Do not call directly unless told to by an…");
    expect(
      compactDescription(
        "Runs f(x) on each row of the table (every row, in order) and returns the results as a list",
      ),
    ).toBe("Runs f(x) on each row of the table and returns the results…");
  });

  it("drops an open parenthesis by position even after characters outside the basic plane", () => {
    expect(
      compactDescription("😀 (Sends rockets and smiles to everyone who asked for them today and more"),
    ).toBe("😀 Sends rockets and smiles to everyone who asked for them…");
  });

  it("never ends in half of a surrogate pair, even in text without spaces", () => {
    const description = `${"天気".repeat(29)}予🌤報を返します`;
    expect(description.charCodeAt(59)).toBe(0xd83c);
    const compact = compactDescription(description);
    expect(compact).toBe(`${"天気".repeat(29)}予…`);
    expect(/[\ud800-\udbff](?![\udc00-\udfff])/.test(compact)).toBe(false);
  });

  it("reads a bounded part of a description, however deep its parentheses nest", () => {
    const nested = `Does this ${"(".repeat(50_000)}x${")".repeat(50_000)} and that.`;
    const started = performance.now();
    const compact = compactDescription(nested);
    expect(performance.now() - started).toBeLessThan(500);
    expect(compact.length).toBeLessThanOrEqual(61);
    expect(compact).not.toContain("(");
  });
});
