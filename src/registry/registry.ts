/** @module The registry: a closed, ordered list of tools with a revision and `tool.update` events. */
import type { Tool } from "../declaration/define-tool.js";
import { RegistryError } from "../errors/registry-error.js";
import type { ToolModule } from "./tool-module.js";

// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of every input/output type.
export type AnyTool = Tool<any, any>;

export interface ToolUpdateEvent {
  type: "tool.update";
  revision: number;
  change: "install" | "remove" | "version";
  tool: string;
  version: string;
}

/** What reflexive tools (find_tools, execute_tool) read: always the registry as it is now. */
export interface RegistryView {
  readonly revision: number;
  list(): readonly AnyTool[];
  get(name: string): AnyTool | undefined;
}

export class ToolRegistry implements RegistryView {
  #tools = new Map<string, AnyTool>();
  #ordered: readonly AnyTool[] = [];
  #revision = 0;
  #listeners = new Set<(event: ToolUpdateEvent) => void>();

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.#add(tool);
    this.#ordered = Object.freeze([...this.#tools.values()]);
  }

  /** Builds a registry from modules, all given the same dependencies, in module order. */
  static fromModules<Deps>(modules: readonly ToolModule<Deps>[], deps: Deps): ToolRegistry {
    return new ToolRegistry(modules.flatMap((module) => module(deps)));
  }

  get revision(): number {
    return this.#revision;
  }

  /** Tools in a stable order (insertion), so a rendered catalogue is byte-identical turn after turn. */
  list(): readonly AnyTool[] {
    return this.#ordered;
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  /** A live view: reads through to this registry at every call, never a snapshot. */
  view(): RegistryView {
    const registry = this;
    return {
      get revision() {
        return registry.revision;
      },
      list: () => registry.list(),
      get: (name) => registry.get(name),
    };
  }

  install(tool: AnyTool): void {
    this.#add(tool);
    this.#changed("install", tool);
  }

  /** Replaces a tool with a new version of itself. */
  update(tool: AnyTool): void {
    const current = this.#tools.get(tool.name);
    if (!current) throw new RegistryError(`cannot update "${tool.name}": no such tool is installed`);
    if (current.hash === tool.hash) return;
    this.#tools.set(tool.name, tool);
    this.#changed("version", tool);
  }

  remove(name: string): void {
    const tool = this.#tools.get(name);
    if (!tool) throw new RegistryError(`cannot remove "${name}": no such tool is installed`);
    this.#tools.delete(name);
    this.#changed("remove", tool);
  }

  /** Subscribes to `tool.update`; returns the unsubscribe function. */
  onUpdate(listener: (event: ToolUpdateEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #add(tool: AnyTool): void {
    if (this.#tools.has(tool.name)) throw new RegistryError(`duplicate tool name "${tool.name}"`);
    this.#tools.set(tool.name, tool);
  }

  #changed(change: ToolUpdateEvent["change"], tool: AnyTool): void {
    this.#ordered = Object.freeze([...this.#tools.values()]);
    this.#revision++;
    const event: ToolUpdateEvent = {
      type: "tool.update",
      revision: this.#revision,
      change,
      tool: tool.name,
      version: tool.version,
    };
    for (const listener of this.#listeners) listener(event);
  }
}
