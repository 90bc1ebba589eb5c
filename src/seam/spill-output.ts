/**
 * @module An output over its tool's cap is kept whole in the output store and the envelope says where:
 * the model reads a head, sees that it is a head, and pages on with read_tool_output instead of trusting
 * half an answer.
 */
import type { AnyTool } from "../registry/registry.js";
import type { ExecutionContext } from "./context.js";
import type { Envelope, OkEnvelope } from "./envelope.js";
import type { OutputStore } from "./output-store.js";
import { headWithin, overflowOf } from "./to-envelope.js";
import { encloseUntrusted } from "./untrusted-fence.js";

/** Stores what the cap cut, when it cut something; a call whose output fitted costs one WeakMap lookup. */
export function spillCutOutput(
  store: OutputStore,
  context: ExecutionContext,
  tool: AnyTool,
  performed: Envelope | Promise<Envelope>,
): Envelope | Promise<Envelope> {
  if (performed instanceof Promise)
    return performed.then((envelope) => spillIfCut(store, context, tool, envelope));
  return spillIfCut(store, context, tool, performed);
}

/** Not async itself: an output that fitted takes no extra promise on its way back. */
function spillIfCut(
  store: OutputStore,
  context: ExecutionContext,
  tool: AnyTool,
  envelope: Envelope,
): Envelope | Promise<Envelope> {
  return overflowOf(envelope) ? spill(store, context, tool, envelope) : envelope;
}

async function spill(
  store: OutputStore,
  context: ExecutionContext,
  tool: AnyTool,
  envelope: Envelope,
): Promise<Envelope> {
  const overflow = overflowOf(envelope);
  if (!overflow || !envelope.ok) return envelope;
  const untrusted = envelope.provenance && !envelope.provenance.trusted ? envelope.provenance : undefined;
  let ref: string;
  try {
    ref = await store.put({
      tenantId: context.tenantId,
      principalId: context.principalId,
      toolName: tool.name,
      text: overflow.text,
      ...(untrusted ? { provenance: untrusted } : {}),
    });
  } catch (error) {
    // The envelope already says it was cut; failing to keep the rest must not fail the call.
    context.logger.warn({ err: error, tool: tool.name }, "could not keep an output over its cap");
    return envelope;
  }
  const limit = tool.limits.outputBytes;
  const total = overflow.text.length;
  const render = (head: string) => (untrusted ? encloseUntrusted(head, untrusted) : head);
  if (overflow.part === "data") {
    const note = `\n[${tool.name}'s data (${total} characters of JSON) is over its ${limit}-byte cap and was kept aside: read it with read_tool_output {"ref":"${ref}","offset":0}]`;
    const head = headWithin(overflow.content, limit - byteLength(note), render);
    return withContent(envelope, (head === undefined ? "" : render(head)) + note);
  }
  const note = (shown: number) =>
    `\n[cut at character ${shown} of ${total} (${tool.name}'s cap is ${limit} bytes); the whole output is kept: read on with read_tool_output {"ref":"${ref}","offset":${shown}}]`;
  // The note names the head's length, which is at most the whole's: room for the longest note will do.
  // Data that fitted stays in the envelope, and the cap holds for both.
  const kept = envelope.data === undefined ? 0 : byteLength(JSON.stringify(envelope.data));
  const head = headWithin(overflow.text, limit - kept - byteLength(note(total)), render);
  if (head === undefined) return withContent(envelope, note(0));
  return withContent(envelope, render(head) + note(head.length));
}

function withContent(envelope: OkEnvelope, content: string): OkEnvelope {
  return { ...envelope, content };
}

function byteLength(text: string): number {
  return Buffer.byteLength(text);
}
