/**
 * @module An output over its tool's cap is kept whole in the output store and the envelope says where:
 * the model reads a head, sees that it is a head, and pages on with read_tool_output instead of trusting
 * half an answer.
 */
import type { AnyTool } from "../registry/registry.js";
import type { ExecutionContext } from "./context.js";
import type { Envelope } from "./envelope.js";
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
  const limit = tool.limits.outputBytes;
  const { content } = overflow;
  const render = (head: string) => (untrusted ? encloseUntrusted(head, untrusted) : head);
  const contentNote = (ref: string, shown: number) =>
    `\n[cut at character ${shown} of ${content.length} (${tool.name}'s cap is ${limit} bytes); the whole text is kept: read on with read_tool_output {"ref":"${ref}","offset":${shown}}]`;
  const dataNote = (ref: string, json: string) =>
    `\n[${tool.name}'s data (${json.length} characters of JSON) did not fit in its ${limit}-byte cap and was kept aside: read it with read_tool_output {"ref":"${ref}","offset":0}]`;

  // Without data of its own, the content is the data's JSON: kept once.
  let aside = overflow.data === content ? undefined : overflow.data;
  const shownJson = envelope.data === undefined ? undefined : JSON.stringify(envelope.data);
  let page = layout(content, limit, render, contentNote, aside && dataNote(SIZING_REF, aside), shownJson);
  // With no room for any page text beside the data, the data goes aside too, once if it is the text.
  const dataMoved = page.cut && page.head === undefined && shownJson !== undefined;
  if (dataMoved) {
    aside = shownJson === content ? undefined : shownJson;
    page = layout(content, limit, render, contentNote, aside && dataNote(SIZING_REF, aside), undefined);
  }

  const keep = async (text: string): Promise<string | undefined> => {
    try {
      return await store.put({
        tenantId: context.tenantId,
        principalId: context.principalId,
        toolName: tool.name,
        text,
        ...(untrusted ? { provenance: untrusted } : {}),
      });
    } catch (error) {
      // Failing to keep the rest must not fail the call; the envelope still says it was cut.
      context.logger.warn({ err: error, tool: tool.name }, "could not keep an output over its cap");
      return undefined;
    }
  };
  const contentRef = page.cut ? await keep(content) : undefined;
  const dataRef = aside === undefined ? undefined : await keep(aside);
  if (page.cut && contentRef === undefined && dataRef === undefined) return envelope;
  // Data moved aside for room stays in the envelope if it could not be kept: nothing is lost for a cap.
  const dataStays = !dataMoved || (aside !== undefined && dataRef === undefined);
  const { data: _data, ...rest } = envelope;
  return {
    ...rest,
    ...(dataStays && envelope.data !== undefined ? { data: envelope.data } : {}),
    content:
      (page.head === undefined ? "" : render(page.head)) +
      (contentRef === undefined ? "" : contentNote(contentRef, page.head?.length ?? 0)) +
      (dataRef === undefined || aside === undefined ? "" : dataNote(dataRef, aside)),
  };
}

/** A ref's length, to size the notes before the store has named what it keeps. */
const SIZING_REF = `out_${"0".repeat(64)}`;

/**
 * What of the content the envelope shows beside the data it keeps and the notes: all of it when that fits,
 * else a head (undefined when not even an empty fence fits) and a note where to read on. A note names a
 * head's length, at most the whole's, so room for the longest will do. A cap smaller than the notes alone
 * (a few hundred bytes) is exceeded by them: where to read on matters more than the cap.
 */
function layout(
  content: string,
  limit: number,
  render: (head: string) => string,
  contentNote: (ref: string, shown: number) => string,
  dataNote: string | undefined,
  shownData: string | undefined,
): { head: string | undefined; cut: boolean } {
  const room = limit - byteLength(dataNote ?? "") - byteLength(shownData ?? "");
  if (byteLength(render(content)) <= room) return { head: content, cut: false };
  return {
    head: headWithin(content, room - byteLength(contentNote(SIZING_REF, content.length)), render),
    cut: true,
  };
}

function byteLength(text: string): number {
  return Buffer.byteLength(text);
}
