/**
 * @module The one rule for who a caller is to the knowledge base: the subjects its execution context gives it
 * (the host's, never tool input). Every member of a tenant holds `tenant`; a principal holds its own
 * `principal:<id>`; each scope it was granted is `scope:<name>`, prefixed so no scope can pass for a principal.
 */
import type { KnowledgeReader } from "./knowledge-base.js";

/** Readable by every member of the tenant: the subjects a source gets when none are named. */
export const TENANT_SUBJECT = "tenant";

export const principalSubject = (principalId: string): string => `principal:${principalId}`;

/** The reader a caller is: its tenant, and the subjects its principal and scopes give it. */
export function knowledgeReaderOf(caller: {
  tenantId: string;
  principalId: string;
  scopes: readonly string[];
}): KnowledgeReader {
  return {
    tenantId: caller.tenantId,
    subjects: [
      TENANT_SUBJECT,
      principalSubject(caller.principalId),
      ...caller.scopes.map((scope) => `scope:${scope}`),
    ],
  };
}
