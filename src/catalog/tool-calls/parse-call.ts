/** @module One tool call, read field by field into a `ParsedToolCall` without trusting any field. */
import { IDENTIFIER } from "../../seam/context.js";
import { failure } from "../../seam/envelope.js";
import type { CatalogProvider } from "../render-catalog.js";
import { generatedCallId } from "./generated-call-id.js";
import { kindOf } from "./json-value.js";
import { readArguments } from "./read-arguments.js";
import type { ParsedToolCall } from "./types.js";

/** A call's fields as found in a message, each possibly missing or of the wrong type. */
export interface RawToolCall {
  provider: CatalogProvider;
  /** The call's position among the message's calls. */
  index: number;
  id: unknown;
  /** OpenAI and Anthropic reject a result they cannot match to its call, so a call without an id is not run. */
  idRequired: boolean;
  name: unknown;
  arguments: unknown;
}

/** Reads one call; a call that cannot be run is refused, with a message the model can act on. */
export function parseCall(raw: RawToolCall): ParsedToolCall {
  const providerId = typeof raw.id === "string" && raw.id !== "" ? raw.id : undefined;
  const name = typeof raw.name === "string" ? raw.name : "";
  // A context takes only identifiers, and the seam keys idempotency on this id.
  const id =
    providerId !== undefined && IDENTIFIER.test(providerId)
      ? providerId
      : generatedCallId(raw.provider, raw.index, raw.name, raw.arguments);
  const identity = providerId === undefined ? { id, name } : { id, name, providerId };
  const refuse = (message: string): ParsedToolCall => ({
    ...identity,
    ok: false,
    envelope: failure("invalid_input", message),
  });

  if (typeof raw.name !== "string") {
    return refuse(
      `this tool call has no name (it is ${kindOf(raw.name)}); name the tool to call as a string`,
    );
  }
  if (raw.idRequired && providerId === undefined) {
    return refuse(
      `this call to ${name.slice(0, 100)} has no id (it is ${kindOf(raw.id)}), so its result could not be matched to it; it was not run`,
    );
  }
  const read = readArguments(name, raw.arguments);
  return read.ok
    ? { ...identity, ok: true, input: read.input }
    : { ...identity, ok: false, envelope: read.envelope };
}
