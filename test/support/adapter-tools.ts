/** @module The tools the framework adapters' tests drive: a read, an external write, and a scoped destructive one. */
import { createScriptedTool } from "../../src/test/scripted-tool.js";
import { createTestHarness } from "../../src/test/test-harness.js";
import { calculateTool } from "../../src/tools/general/index.js";

/** A seam over `calculate`, `send_email` (parks for approval) and `wipe_tenant` (needs the admin scope). */
export function adapterTestHarness() {
  const send = createScriptedTool(["sent"], {
    name: "send_email",
    description: "Sends an email.",
    effect: "external-write",
  });
  const wipe = createScriptedTool(["wiped"], {
    name: "wipe_tenant",
    description: "Deletes everything.",
    effect: "destructive",
    scopes: ["admin"],
  });
  return { harness: createTestHarness([calculateTool, send, wipe]), send, wipe };
}
