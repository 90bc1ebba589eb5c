/**
 * @module An AI SDK agent over a toolreg catalogue. The model starts with only the meta-tools: it finds a
 * CRM tool with find_tools, calls it through execute_tool, the SDK asks a human, and the approved call
 * runs once through the seam. Run it with `npx tsx examples/ai-sdk-agent/agent.ts`. In an app, import
 * from "toolreg", "toolreg/stores", "toolreg/tools", "toolreg/stores/sqlite" and "toolreg/adapters/ai-sdk" instead.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { generateText, type ModelMessage, stepCountIs, type ToolApprovalResponse } from "ai";
import { aiSdkTools } from "../../src/adapters/ai-sdk/index.js";
import { metaTools } from "../../src/catalog/index.js";
import {
  type ApprovalStatus,
  createExecutionContext,
  createSeam,
  type Seam,
  ToolRegistry,
} from "../../src/index.js";
import type { AuditEvent } from "../../src/ports/index.js";
import { openSqliteStores } from "../../src/stores/sqlite/index.js";
import { generalTools } from "../../src/tools/index.js";
import { type CrmNote, createCrmNoteWriteTool } from "./crm-note-tool.js";
import { createScriptedModel, USER_REQUEST } from "./scripted-model.js";
import { formatStep, type TranscriptStep, transcriptOf } from "./transcript.js";

export const TENANT_ID = "acme";
/** The signed-in user: the agent calls tools as them, and they approve its writes in the chat. */
export const USER_ID = "user:dana";

export interface ExampleResult {
  steps: TranscriptStep[];
  toolsCalled: string[];
  finalText: string;
  /** The approval toolreg recorded for the write; none when the human said no before it reached the seam. */
  approval: { status: ApprovalStatus; decidedBy: string | undefined } | undefined;
  audit: Pick<AuditEvent, "kind" | "tool" | "toolCallId" | "outcome">[];
  /** What reached the (stand-in) CRM. */
  notes: CrmNote[];
}

export async function runExample({ humanApproves = true } = {}): Promise<ExampleResult> {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-ai-sdk-agent-"));
  // What a deployment uses: approvals, idempotency records and the audit trail in one SQLite file.
  const stores = openSqliteStores(join(directory, "toolreg.sqlite"));
  try {
    const notes: CrmNote[] = [];
    const seam: Seam = createSeam({
      registry: new ToolRegistry([
        ...generalTools({}),
        createCrmNoteWriteTool(notes),
        // Over this same seam, so a tool found and run through them keeps its own rules.
        ...metaTools({ seam: () => seam }),
      ]).view(),
      stores,
    });
    // One run id across the approval's round trip, so the approved call keeps its idempotency key.
    const runId = `run-${randomUUID()}`;
    const tools = aiSdkTools({
      seam,
      // Who calls comes from the host, never from the model.
      context: (toolCallId) =>
        createExecutionContext({ tenantId: TENANT_ID, principalId: USER_ID, runId, toolCallId }),
      approver: USER_ID,
      // The model sees three tools, not the whole catalogue; it finds the rest with find_tools.
      only: ["find_tools", "learn_tools", "execute_tool"],
    });
    const model = createScriptedModel();
    const messages: ModelMessage[] = [{ role: "user", content: USER_REQUEST }];

    // The model searches, then calls execute_tool; the SDK stops there to ask for approval.
    const asking = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    messages.push(...asking.response.messages);
    // A chat UI would show each request's tool call to the user and wait for their answer.
    const answers = asking.content.flatMap((part): ToolApprovalResponse[] =>
      part.type === "tool-approval-request"
        ? [{ type: "tool-approval-response", approvalId: part.approvalId, approved: humanApproves }]
        : [],
    );
    messages.push({ role: "tool", content: answers });

    // The SDK runs an approved call through the seam before the model's next turn; a denied one never.
    const answering = await generateText({ model, tools, messages, stopWhen: stepCountIs(5) });
    messages.push(...answering.response.messages);

    const steps = transcriptOf(messages);
    const [approval] = await stores.approvals.list({ tenantId: TENANT_ID });
    // The store lists the newest first; a transcript reads oldest first.
    const audit = (await stores.audit.list({ tenantId: TENANT_ID })).reverse();
    return {
      steps,
      toolsCalled: steps.flatMap((step) => (step.kind === "tool-call" ? [step.toolName] : [])),
      finalText: answering.text,
      approval: approval && { status: approval.status, decidedBy: approval.decidedBy },
      audit: audit.map(({ kind, tool, toolCallId, outcome }) => ({ kind, tool, toolCallId, outcome })),
      notes,
    };
  } finally {
    stores.close();
    rmSync(directory, { recursive: true, force: true });
  }
}

export function formatResult(result: ExampleResult): string {
  const approval = result.approval
    ? `${result.approval.status}, decided by ${result.approval.decidedBy}`
    : "none recorded";
  return [
    ...result.steps.map(formatStep),
    "",
    `approval     ${approval}`,
    `crm notes    ${JSON.stringify(result.notes)}`,
    "audit trail",
    ...result.audit.map(
      (event) => `  ${event.kind.padEnd(17)} ${event.tool.padEnd(15)} ${event.toolCallId} ${event.outcome}`,
    ),
  ].join("\n");
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(formatResult(await runExample()));
}
