/** @module What the e-mail tools run against once bound: the operator's sender, the provider and the record store. */
import { type ToolkitRecordStore, toolFor } from "toolreg/toolkit";
import type { Mailbox } from "./message/mailbox.js";
import type { MailProvider } from "./providers/mail-provider.js";

export interface EmailEnv {
  from: Mailbox;
  provider: MailProvider;
  /** Where sends are remembered; the tools exist only where the host lends one. */
  records: ToolkitRecordStore | undefined;
  now(): number;
}

/** Declares an e-mail tool: its `run` receives the bound EmailEnv. */
export const emailTool = toolFor<EmailEnv>();

/** The tools need somewhere to remember what was sent: without it, a send could not be looked up. */
export const hasRecords = (env: EmailEnv) => env.records !== undefined;
