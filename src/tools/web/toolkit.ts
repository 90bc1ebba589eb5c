/** @module The web toolkit: pages, JSON APIs and raw HTTP, every request through the egress client. */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { fetchJsonSpec } from "./fetch-json.js";
import { fetchUrlSpec } from "./fetch-url.js";
import { httpRequestSpec } from "./http-request.js";
import { httpWriteSpec } from "./http-write.js";

export const webToolkit = defineToolkit({
  id: "web",
  version: "1.0.0",
  package: "toolreg",
  description: "Reads pages and JSON APIs and sends HTTP requests, within the operator's egress policy.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  // The URL is the call's, so no host list says it reaches the web.
  openWorld: true,
  tools: [fetchUrlSpec, fetchJsonSpec, httpRequestSpec, httpWriteSpec],
  triage: {
    directed: [
      {
        tool: "http_write",
        package: "toolreg",
        why: "its destination is an argument, so its publicness is the call's: a generic escape hatch, gated always",
      },
    ],
  },
  reviewedOverrides: [
    { tool: "fetch_url", field: "approval" },
    { tool: "fetch_json", field: "approval" },
    { tool: "http_request", field: "approval" },
  ],
  // Any host the operator's policy allows: the URL is the call's.
  bind: (_config, host) => ({ egress: host.egress() }),
});
