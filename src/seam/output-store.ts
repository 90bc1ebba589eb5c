/** @module The output store port: where an output over its tool's cap is kept whole, to be paged by read_tool_output. */
import type { Provenance } from "./envelope.js";

export interface StoredOutput {
  toolName: string;
  text: string;
  /** Set when the text came from outside: each page read back is fenced again. */
  provenance?: Provenance;
}

export interface OutputStore {
  /** Keeps an output for the tenant and principal whose call made it; resolves to its reference. */
  put(output: StoredOutput & { tenantId: string; principalId: string }): Promise<string>;
  /** The output behind a reference, only for the tenant and principal it was made for. */
  get(request: { tenantId: string; principalId: string; ref: string }): Promise<StoredOutput | undefined>;
}

/** What a reference looks like: `out_` and a sha256. */
export const OUTPUT_REF = /^out_[0-9a-f]{64}$/;

/**
 * The file name an output store over an artifact store keeps each output under. A reader of artifacts
 * refuses it: a kept output is read through its output store, which checks the principal and keeps its provenance.
 */
export const KEPT_OUTPUT_FILE = "tool-output.json";
