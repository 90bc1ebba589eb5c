/** @module The registry server's authentication: API keys, one-time console logins and their sessions. */
export { parseBearer } from "./parse-bearer.js";
export { openSqliteAuthStore } from "./sqlite-auth-store.js";
export type {
  ApiKeyRecord,
  AuthStore,
  Caller,
  CreateKeyInput,
  LiveSession,
  RedeemedLogin,
  SqliteAuthStoreOptions,
} from "./types.js";
