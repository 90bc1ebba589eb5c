/** @module The web toolkit: pages, JSON APIs and raw HTTP, every request through the egress client. */
import type { EgressClient } from "../../egress/egress-client.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { webToolkit } from "./toolkit.js";

export { webToolkit } from "./toolkit.js";

export interface WebToolDeps {
  /** The only way these tools reach the network; without one there are no web tools. */
  egress?: EgressClient;
}

export const webTools: ToolModule<WebToolDeps> = ({ egress }) =>
  egress ? webToolkit.withEnv({ egress }) : [];
