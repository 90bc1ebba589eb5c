import { describe, expect, it } from "vitest";
import { boundNote, collectPages, type Page } from "./collect-pages.js";

/** A vendor with `total` items in pages of `size`, counting the pages it was asked for. */
function vendor(total: number, size: number) {
  const asked = { pages: 0 };
  async function* pages(): AsyncGenerator<Page<number>> {
    for (let start = 0; start < total; start += size) {
      asked.pages++;
      const items = Array.from({ length: Math.min(size, total - start) }, (_, i) => start + i);
      yield { items, hasMore: start + size < total };
    }
  }
  return { pages, asked };
}

describe("collectPages", () => {
  it("walks every page of a list under the bound, and says it is complete", async () => {
    const { pages, asked } = vendor(25, 10);
    const collected = await collectPages(pages(), { maxItems: 100 });
    expect(collected).toMatchObject({ complete: true, pages: 3 });
    expect(collected.items).toHaveLength(25);
    expect(asked.pages).toBe(3);
    expect(boundNote(collected, "issues")).toBe("25 issues");
  });

  it("stops at the bound without asking for another page, and says there are more", async () => {
    const { pages, asked } = vendor(100, 10);
    const collected = await collectPages(pages(), { maxItems: 15 });
    expect(collected.items).toEqual(Array.from({ length: 15 }, (_, i) => i));
    expect(collected.complete).toBe(false);
    expect(asked.pages).toBe(2);
    expect(boundNote(collected, "issues")).toMatch(/^the first 15 issues; there are more/);
  });

  it("is complete when the bound falls exactly on the last item", async () => {
    const { pages } = vendor(20, 10);
    expect(await collectPages(pages(), { maxItems: 20 })).toMatchObject({ complete: true, pages: 2 });
  });

  it("stops at maxPages whatever the items, and an empty list is complete", async () => {
    const { pages, asked } = vendor(100, 10);
    expect(await collectPages(pages(), { maxItems: 1000, maxPages: 3 })).toMatchObject({
      complete: false,
      pages: 3,
    });
    expect(asked.pages).toBe(3);
    expect(await collectPages(vendor(0, 10).pages(), { maxItems: 5 })).toMatchObject({
      items: [],
      complete: true,
      pages: 0,
    });
  });
});
