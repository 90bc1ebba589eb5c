/** @module `toolreg kb list` pages through the whole tenant: past one page of sources, none is dropped. */
import { expect, it } from "vitest";
import { KNOWLEDGE_LIMITS } from "../../ports/knowledge-base.js";
import { createMemoryKnowledgeBase } from "../../stores/memory/knowledge.js";
import type { CliIo } from "../cli-io.js";
import { kbList } from "./kb.js";

it("lists every source of the tenant, not only the first page", async () => {
  const knowledge = createMemoryKnowledgeBase();
  const count = KNOWLEDGE_LIMITS.listPage * 2 + 5;
  for (let n = 0; n < count; n++) {
    await knowledge.begin("acme", {
      title: `S${n}`,
      kind: "text",
      origin: "text",
      authSubjects: ["tenant"],
      model: "m",
      now: n,
    });
  }
  let out = "";
  const io: CliIo = { stdout: (text) => (out += text), stderr: () => {}, cwd: ".", env: {} };
  expect(await kbList(knowledge, "acme", { json: true }, io)).toBe(0);
  const titles = (JSON.parse(out) as { title: string }[]).map((s) => s.title);
  expect(titles).toHaveLength(count);
  expect(titles[0]).toBe(`S${count - 1}`);
  expect(titles.at(-1)).toBe("S0");
});
