/**
 * @module The port for pins of imported MCP tools: what a person accepted of each upstream tool, and what the
 * upstream offers now when that differs. Pins belong to the deployment's catalogue, which every tenant
 * shares, so they are keyed by server and tool, not by tenant.
 */

/** What a model or an approver relies on in an upstream tool: the parts a "rug pull" would change. */
export interface PinnedDefinition {
  description: string;
  inputSchema: unknown;
  outputSchema?: unknown;
  annotations?: unknown;
}

export interface ToolPin {
  server: string;
  /** The tool's name on the upstream server. */
  tool: string;
  /** The accepted definition and its hash. */
  hash: string;
  definition: PinnedDefinition;
  acceptedAt: number;
  acceptedBy: string;
  /** A different definition the upstream offered since, awaiting a person's acceptance. */
  offered?: { hash: string; definition: PinnedDefinition; seenAt: number };
}

export interface PinStore {
  /** One server's pins, or every server's; by server, then tool. */
  list(server?: string): Promise<ToolPin[]>;
  /** Records a first sight (the definition is accepted as it is) or replaces a pin wholesale. */
  put(pin: ToolPin): Promise<void>;
  /** Notes what the upstream offers instead of the accepted definition; `undefined` clears it. */
  offer(server: string, tool: string, offered: ToolPin["offered"]): Promise<void>;
  /**
   * Makes the offered definition the accepted one, if it is still the one with `hash` (what the person
   * reviewed: the upstream may have offered another since); false when it is not, or nothing is offered.
   */
  accept(request: { server: string; tool: string; hash: string; by: string; at: number }): Promise<boolean>;
}
