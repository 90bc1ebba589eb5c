/** @module What the web tools run against: the egress client, their only way to the network. */
import type { EgressClient } from "../../egress/egress-client.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface WebEnv {
  egress: EgressClient;
}

export const webTool = toolFor<WebEnv>();
