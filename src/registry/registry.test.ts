import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../declaration/define-tool.js";
import { RegistryError } from "../errors/registry-error.js";
import { ToolRegistry, type ToolUpdateEvent } from "./registry.js";
import type { ToolModule } from "./tool-module.js";

const tool = (name: string, version = "1.0.0") =>
  defineTool({
    name,
    version,
    description: `${name} tool.`,
    category: "general",
    effect: "read",
    input: z.object({}),
    run: () => name,
  });

describe("ToolRegistry", () => {
  it("builds from modules in stable order; a module with a missing dependency contributes nothing", () => {
    const always: ToolModule<{ mail?: string }> = () => [tool("b_tool"), tool("a_tool")];
    const mail: ToolModule<{ mail?: string }> = (deps) => (deps.mail ? [tool("send_mail")] : []);
    expect(
      ToolRegistry.fromModules([always, mail], {})
        .list()
        .map((t) => t.name),
    ).toEqual(["b_tool", "a_tool"]);
    expect(
      ToolRegistry.fromModules([always, mail], { mail: "smtp" })
        .list()
        .map((t) => t.name),
    ).toEqual(["b_tool", "a_tool", "send_mail"]);
  });

  it("refuses a duplicate name", () => {
    expect(() => new ToolRegistry([tool("x_tool"), tool("x_tool")])).toThrow(RegistryError);
    const registry = new ToolRegistry([tool("x_tool")]);
    expect(() => registry.install(tool("x_tool"))).toThrow(/duplicate tool name "x_tool"/);
    expect(registry.revision).toBe(0);
  });

  it("bumps the revision and emits tool.update on install, version change and remove; a live view sees it", () => {
    const registry = new ToolRegistry([tool("one")]);
    const view = registry.view();
    const events: ToolUpdateEvent[] = [];
    const stop = registry.onUpdate((event) => events.push(event));
    registry.install(tool("two"));
    registry.update(tool("two", "1.1.0"));
    registry.update(tool("two", "1.1.0")); // same definition: no change
    registry.remove("one");
    expect(events.map((event) => [event.change, event.tool, event.version, event.revision])).toEqual([
      ["install", "two", "1.0.0", 1],
      ["version", "two", "1.1.0", 2],
      ["remove", "one", "1.0.0", 3],
    ]);
    expect(view.revision).toBe(3);
    expect(view.list().map((t) => `${t.name}@${t.version}`)).toEqual(["two@1.1.0"]);
    stop();
    registry.install(tool("three"));
    expect(events).toHaveLength(3);
    expect(view.get("three")?.name).toBe("three");
  });

  it("keeps a tool's place in the order when its version changes", () => {
    const registry = new ToolRegistry([tool("a"), tool("b"), tool("c")]);
    registry.update(tool("a", "2.0.0"));
    expect(registry.list().map((t) => t.name)).toEqual(["a", "b", "c"]);
  });
});
