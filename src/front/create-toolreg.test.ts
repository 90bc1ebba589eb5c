import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../declaration/define-tool.js";
import type { ToolkitRecordStore } from "../ports/toolkit-record-store.js";
import { createMemoryToolkitRecordStore } from "../stores/memory/toolkit-records.js";
import { dataToolkit } from "../tools/data/toolkit.js";
import { generalToolkit } from "../tools/general/toolkit.js";
import { createToolreg, type Toolreg } from "./create-toolreg.js";

const ada = { tenantId: "acme", principalId: "ada" };
let toolreg: Toolreg | undefined;
afterEach(async () => {
  await toolreg?.close(0);
  toolreg = undefined;
});

const calculateAgain = () =>
  defineTool({
    name: "calculate",
    description: "A second calculator.",
    category: "general",
    effect: "read",
    input: z.object({}),
    run: () => "0",
  });

function ticketTool(created: string[]) {
  return defineTool({
    name: "tracker_create_ticket",
    description: "Creates a ticket in the tracker.",
    category: "project",
    effect: "external-write",
    input: z.object({ title: z.string().min(1).max(100) }),
    run: ({ title }) => {
      created.push(title);
      return { content: `created "${title}"` };
    },
  });
}

describe("createToolreg", () => {
  it("calls, renders and finds the tools of its toolkits and the host's own", async () => {
    toolreg = await createToolreg({
      toolkits: [generalToolkit, { toolkit: dataToolkit, include: ["parse_csv"] }],
      tools: [ticketTool([])],
    });
    expect(await toolreg.call(ada, "calculate", { expression: "6*7" })).toMatchObject({
      ok: true,
      content: "42",
    });
    const rendered = toolreg.render(ada, "openai-chat").map((tool) => tool.function.name);
    expect(rendered).toEqual(
      expect.arrayContaining(["now", "calculate", "parse_csv", "tracker_create_ticket", "find_tools"]),
    );
    expect(rendered).not.toContain("query_json");
    expect(toolreg.find(ada, "evaluate an arithmetic expression", 3)[0]?.name).toBe("calculate");
    expect(await toolreg.call(ada, "query_json", { json: "{}", expression: "a" })).toMatchObject({
      ok: false,
      error: { code: "unknown_tool" },
    });
  });

  it("parks a write for approval, and runs it exactly once after it is approved", async () => {
    const created: string[] = [];
    toolreg = await createToolreg({ tools: [ticketTool(created)] });
    const parked = await toolreg.call(ada, "tracker_create_ticket", { title: "Printer on fire" });
    expect(parked).toMatchObject({ ok: false, error: { code: "approval_required" } });
    const [pending] = await toolreg.approvals.list("acme", "pending");
    expect(pending?.toolName).toBe("tracker_create_ticket");
    await toolreg.approvals.approve("acme", pending?.id as string, "carol");
    const first = await toolreg.approvals.resume(ada, pending?.id as string);
    expect(first).toMatchObject({ ok: true, content: 'created "Printer on fire"' });
    expect(await toolreg.approvals.resume(ada, pending?.id as string)).toEqual(first);
    expect(created).toEqual(["Printer on fire"]);
    expect(await toolreg.approvals.list("globex")).toEqual([]);
  });

  it("shows each tenant only the categories its toolset switches on", async () => {
    const toolsets = {
      categoriesFor: (tenantId: string) => (tenantId === "acme" ? new Set(["data"]) : undefined),
    };
    toolreg = await createToolreg({
      toolkits: [generalToolkit, dataToolkit],
      metaTools: false,
      seam: { toolsets },
    });
    expect(toolreg.render(ada, "mcp").map((tool) => tool.name)).toEqual(["parse_csv", "query_json"]);
    expect(toolreg.find(ada, "what time is it now")).not.toContainEqual(
      expect.objectContaining({ name: "now" }),
    );
    expect(toolreg.render({ tenantId: "globex", principalId: "x" }, "mcp")).toHaveLength(6);
  });

  it("refuses two tools of one name, as a registry does", async () => {
    await expect(createToolreg({ toolkits: [generalToolkit], tools: [calculateAgain()] })).rejects.toThrow(
      /calculate/,
    );
  });

  it("lends every toolkit the record store given, else one in memory", async () => {
    const lent: (ToolkitRecordStore | undefined)[] = [];
    const recording = {
      ...generalToolkit,
      build: async (_config: unknown, host: { records?: ToolkitRecordStore | undefined }) => {
        lent.push(host.records);
        return [];
      },
    };
    toolreg = await createToolreg({ toolkits: [recording, recording] });
    const [first, second] = lent;
    expect(second).toBe(first);
    const key = { toolkit: "email", tenantId: "acme", principalId: "ada", id: "msg-1" };
    expect(await first?.add({ ...key, data: { to: "bob" }, at: 1 })).toBe(true);
    expect(await first?.get(key)).toMatchObject({ version: 1, data: { to: "bob" } });
    await toolreg.close(0);

    const records = createMemoryToolkitRecordStore();
    toolreg = await createToolreg({ toolkits: [recording], records });
    expect(lent[2]).toBe(records);
  });

  it("refuses a toolkit's bad configuration and leaves nothing open", async () => {
    const { filesToolkit } = await import("../tools/files/toolkit.js");
    await expect(
      createToolreg({ toolkits: [{ toolkit: filesToolkit, config: { readRoot: 1 } }] }),
    ).rejects.toThrow(/toolkit files: readRoot/);
  });
});
