/** @module Checks what a new API key is created with; keys come from the CLI and the console, so input is untrusted. */

import type { CreateKeyInput } from "../../ports/auth-store.js";
import { type AssistantMode, IDENTIFIER } from "../../seam/context.js";

const SCOPE = /^[a-z0-9:._-]{1,64}$/i;
const MODES: readonly AssistantMode[] = ["active", "gated", "disabled"];
const MAX_LABEL_LENGTH = 200;

export interface KeyInput {
  tenantId: string;
  principalId: string;
  scopes: string[];
  mode: AssistantMode;
  operator: boolean;
  label: string | undefined;
  expiresAt: number | undefined;
}

/** The input with defaults filled in and duplicate scopes dropped; throws a TypeError naming the first bad field. */
export function checkKeyInput(input: CreateKeyInput): KeyInput {
  const { tenantId, principalId, scopes = [], mode = "active", operator = false, label, expiresAt } = input;
  for (const [field, value] of [
    ["tenantId", tenantId],
    ["principalId", principalId],
  ] as const) {
    if (typeof value !== "string" || !IDENTIFIER.test(value))
      throw new TypeError(`api key: ${field} is not a valid identifier`);
  }
  if (!Array.isArray(scopes)) throw new TypeError("api key: scopes must be an array of strings");
  for (const scope of scopes) {
    if (typeof scope !== "string" || !SCOPE.test(scope))
      throw new TypeError(`api key: scopes holds ${JSON.stringify(scope)}, which is not a valid scope`);
  }
  if (!MODES.includes(mode)) throw new TypeError(`api key: mode must be one of ${MODES.join(", ")}`);
  if (typeof operator !== "boolean") throw new TypeError("api key: operator must be a boolean");
  if (label !== undefined && (typeof label !== "string" || label.length > MAX_LABEL_LENGTH))
    throw new TypeError(`api key: label must be a string of at most ${MAX_LABEL_LENGTH} characters`);
  if (expiresAt !== undefined && (!Number.isSafeInteger(expiresAt) || expiresAt <= 0))
    throw new TypeError("api key: expiresAt must be a positive whole number of epoch milliseconds");
  return { tenantId, principalId, scopes: [...new Set(scopes)], mode, operator, label, expiresAt };
}
