/** @module What a principal may do now, for a call resumed without them present: their newest live key. */
import type { ApiKeyRecord, AuthStore } from "../ports/auth-store.js";

export async function newestLiveKey(
  auth: AuthStore,
  tenantId: string,
  principalId: string,
): Promise<ApiKeyRecord | undefined> {
  return (await auth.listKeys({ tenantId }))
    .filter((key) => key.principalId === principalId && key.revokedAt === undefined)
    .sort((a, b) => b.createdAt - a.createdAt)[0];
}
