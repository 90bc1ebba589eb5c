/**
 * @module The attachments toolkit: the files a person hands their agent, in the deployment's attachment store,
 * which decides who reads what. With no store on the host its tools are not served.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { listAttachmentsSpec } from "./list-attachments.js";
import { readAttachmentSpec } from "./read-attachment.js";

export const attachmentsToolkit = defineToolkit({
  id: "attachments",
  version: "1.0.0",
  package: "toolreg",
  description: "The files the person attached: list them and read a text file's content.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [listAttachmentsSpec, readAttachmentSpec],
  bind: (_config, host) => (host.attachments ? { attachments: host.attachments } : undefined),
});
