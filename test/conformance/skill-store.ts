/**
 * @module The one conformance suite every SkillStore adapter runs (memory, SQLite, PostgreSQL): skills per
 * tenant, versions that only go up and are never reused while a skill exists, drafts outside the bounds
 * refused with nothing written, removal of a version or a whole skill, and writers on two connections.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ToolFailure } from "../../src/errors/tool-failure.js";
import { SKILL_LIMITS, type SkillDraft, type SkillStore } from "../../src/ports/skill-store.js";

export interface SkillStoreFixture {
  store: SkillStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<SkillStore>;
  /** A second connection to the same storage, as another instance would have; only shared adapters provide it. */
  another?: () => Promise<SkillStore>;
  cleanup(): Promise<void>;
}

const ACME = "acme";
const GLOBEX = "globex";
type Written = SkillDraft & { createdBy: string; now: number };
const draft = (overrides: Partial<Written> = {}): Written => ({
  name: "pdf-forms",
  description: "Fill PDF forms. Use when a task hands you a form to complete.",
  body: "# Filling forms\n\n1. Read the form's fields.\n2. Fill each one.",
  files: { "reference/fields.md": "Field names are case-sensitive." },
  metadata: { license: "MIT", "allowed-tools": "shell_exec" },
  createdBy: "user:ada",
  now: 1_000,
  ...overrides,
});

/** The refusal `promise` rejects with: its envelope code and message. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return { code: error.envelopeCode, message: error.message };
}

/** Registers the suite for one adapter; `factory` gives a fresh, empty store for every test. */
export function runSkillStoreConformance(name: string, factory: () => Promise<SkillStoreFixture>): void {
  describe(`${name} skill store conformance`, () => {
    let fixture: SkillStoreFixture;
    let store: SkillStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it("writes version 1, then 2, reads the latest by default and any version by number", async () => {
      const first = await store.put(ACME, draft());
      expect(first).toEqual({
        name: "pdf-forms",
        version: 1,
        description: "Fill PDF forms. Use when a task hands you a form to complete.",
        body: "# Filling forms\n\n1. Read the form's fields.\n2. Fill each one.",
        files: { "reference/fields.md": "Field names are case-sensitive." },
        metadata: { license: "MIT", "allowed-tools": "shell_exec" },
        createdAt: 1_000,
        createdBy: "user:ada",
      });
      const second = await store.put(
        ACME,
        draft({ body: "v2", files: {}, metadata: {}, createdBy: "user:bob", now: 2_000 }),
      );
      expect(second).toMatchObject({ version: 2, body: "v2", files: {}, createdBy: "user:bob" });
      expect(await store.get(ACME, "pdf-forms")).toEqual(second);
      expect(await store.get(ACME, "pdf-forms", 1)).toEqual(first);
      expect(await store.get(ACME, "pdf-forms", 3)).toBeUndefined();
      expect(await store.get(ACME, "no-such-skill")).toBeUndefined();
      expect(await store.versions(ACME, "pdf-forms")).toEqual([1, 2]);
    });

    it("lists a tenant's skills by name with the latest description, and nothing of another tenant", async () => {
      await store.put(ACME, draft({ name: "zeta", description: "old" }));
      await store.put(ACME, draft({ name: "zeta", description: "new", now: 5_000 }));
      await store.put(ACME, draft({ name: "alpha", description: "first" }));
      await store.put(GLOBEX, draft({ name: "secret-recipe", description: "Globex only" }));
      expect(await store.list(ACME)).toEqual([
        { name: "alpha", description: "first", version: 1, versions: 1, updatedAt: 1_000 },
        { name: "zeta", description: "new", version: 2, versions: 2, updatedAt: 5_000 },
      ]);
      expect(await store.get(ACME, "secret-recipe")).toBeUndefined();
      expect(await store.versions(ACME, "secret-recipe")).toEqual([]);
      expect(await store.remove(ACME, "secret-recipe")).toBe(0);
      expect(await store.get(GLOBEX, "secret-recipe")).toMatchObject({ description: "Globex only" });
      // One name in two tenants is two skills, each with its own versions.
      await store.put(GLOBEX, draft({ name: "alpha", description: "Globex's alpha" }));
      expect(await store.get(GLOBEX, "alpha")).toMatchObject({ version: 1, description: "Globex's alpha" });
      expect(await store.get(ACME, "alpha")).toMatchObject({ version: 1, description: "first" });
    });

    it("removes one version without reusing its number, or the whole skill, which then starts again at 1", async () => {
      for (const now of [1, 2, 3]) await store.put(ACME, draft({ body: `v${now}`, now }));
      expect(await store.remove(ACME, "pdf-forms", 3)).toBe(1);
      expect(await store.remove(ACME, "pdf-forms", 3)).toBe(0);
      expect(await store.get(ACME, "pdf-forms")).toMatchObject({ version: 2, body: "v2" });
      expect(await store.put(ACME, draft({ body: "v4" }))).toMatchObject({ version: 4 });
      expect(await store.versions(ACME, "pdf-forms")).toEqual([1, 2, 4]);
      expect(await store.remove(ACME, "pdf-forms")).toBe(3);
      expect(await store.list(ACME)).toEqual([]);
      expect(await store.get(ACME, "pdf-forms", 1)).toBeUndefined();
      expect(await store.put(ACME, draft())).toMatchObject({ version: 1 });
      // The last version removed by number forgets the skill too.
      expect(await store.remove(ACME, "pdf-forms", 1)).toBe(1);
      expect(await store.put(ACME, draft())).toMatchObject({ version: 1 });
    });

    it("refuses drafts outside the bounds with what to change, writing nothing", async () => {
      const refused: [Partial<SkillDraft>, RegExp][] = [
        [{ name: "PDF-Forms" }, /lower-case/],
        [{ name: "-lead" }, /single hyphens/],
        [{ name: "double--hyphen" }, /single hyphens/],
        [{ name: "x".repeat(65) }, /1-64/],
        [{ name: "../etc" }, /lower-case/],
        [{ description: "   " }, /needs a description/],
        [{ description: "d".repeat(1_025) }, /1024/],
        [{ description: "two\nlines" }, /one line/],
        [{ body: "NUL \u0000 byte" }, /control/],
        [{ body: "b".repeat(SKILL_LIMITS.bodyBytes + 1) }, /KiB/],
        [{ files: { "../escape.md": "x" } }, /relative/],
        [{ files: { "/etc/passwd": "x" } }, /relative/],
        [{ files: { "a\\b.md": "x" } }, /relative/],
        [{ files: { "SKILL.md": "x" } }, /skill itself/],
        [{ files: { "big.md": "f".repeat(SKILL_LIMITS.fileBytes + 1) } }, /KiB/],
        [
          { files: Object.fromEntries(Array.from({ length: 21 }, (_, n) => [`f${n}.md`, "x"])) },
          /at most 20/,
        ],
        [
          {
            files: Object.fromEntries(Array.from({ length: 5 }, (_, n) => [`f${n}.md`, "f".repeat(60_000)])),
          },
          /together/,
        ],
        [{ metadata: { huge: "m".repeat(SKILL_LIMITS.metadataBytes) } }, /other fields/],
      ];
      for (const [overrides, message] of refused) {
        const { code, message: said } = await refusal(store.put(ACME, draft(overrides)));
        expect(code, JSON.stringify(overrides).slice(0, 80)).toBe("invalid_input");
        expect(said).toMatch(message);
      }
      expect(await store.list(ACME)).toEqual([]);
    });

    it("refuses a version past the skill's cap and a skill past the tenant's, writing nothing", async () => {
      for (let n = 0; n < SKILL_LIMITS.versionsPerSkill; n++) await store.put(ACME, draft({ files: {} }));
      const full = await refusal(store.put(ACME, draft()));
      expect(full).toMatchObject({
        code: "precondition_failed",
        message: expect.stringMatching(/remove old versions/),
      });
      expect(await store.versions(ACME, "pdf-forms")).toHaveLength(SKILL_LIMITS.versionsPerSkill);
      for (let n = 1; n < SKILL_LIMITS.skillsPerTenant; n++)
        await store.put(ACME, draft({ name: `skill-${n}`, files: {} }));
      const many = await refusal(store.put(ACME, draft({ name: "one-more" })));
      expect(many).toMatchObject({
        code: "precondition_failed",
        message: expect.stringMatching(/remove one/),
      });
      expect(await store.get(ACME, "one-more")).toBeUndefined();
      // A new version of a skill that exists is not a new skill; another tenant has its own count.
      expect(await store.put(ACME, draft({ name: "skill-1" }))).toMatchObject({ version: 2 });
      expect(await store.put(GLOBEX, draft({ name: "one-more" }))).toMatchObject({ version: 1 });
    }, 60_000);

    it("keeps files named like Object's own properties as files, and nothing else", async () => {
      const files = JSON.parse('{"__proto__": "a file", "constructor": "another", "a.md": "A"}') as Record<
        string,
        string
      >;
      const written = await store.put(ACME, draft({ files }));
      for (const read of [written, await store.get(ACME, "pdf-forms")]) {
        expect(Object.keys(read!.files).sort()).toEqual(["__proto__", "a.md", "constructor"]);
        expect(Object.getPrototypeOf(read!.files)).toBe(Object.prototype);
        expect(Object.getOwnPropertyDescriptor(read!.files, "__proto__")?.value).toBe("a file");
      }
    });

    it("hands out copies: changing what was returned changes nothing stored", async () => {
      const written = await store.put(ACME, draft());
      written.files["reference/fields.md"] = "changed";
      written.metadata.license = "changed";
      const read = await store.get(ACME, "pdf-forms");
      read!.body = "changed";
      expect(await store.get(ACME, "pdf-forms")).toMatchObject({
        body: draft().body,
        files: draft().files,
        metadata: draft().metadata,
      });
    });

    it("gives writers of one name on two connections distinct versions", async (context) => {
      if (!fixture.another) return context.skip();
      const other = await fixture.another();
      const writes = Array.from({ length: 10 }, (_, n) =>
        (n % 2 === 0 ? store : other).put(ACME, draft({ body: `writer ${n}`, now: n })),
      );
      const versions = (await Promise.all(writes)).map((written) => written.version);
      expect(new Set(versions).size).toBe(10);
      expect([...versions].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(await other.versions(ACME, "pdf-forms")).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    });

    it("keeps every version across a reopen", async (context) => {
      if (!fixture.reopen) return context.skip();
      await store.put(ACME, draft());
      await store.put(ACME, draft({ body: "v2" }));
      const reopened = await fixture.reopen();
      expect(await reopened.versions(ACME, "pdf-forms")).toEqual([1, 2]);
      expect(await reopened.get(ACME, "pdf-forms", 1)).toMatchObject({
        files: draft().files,
        metadata: draft().metadata,
      });
      expect(await reopened.put(ACME, draft())).toMatchObject({ version: 3 });
    });
  });
}
