/** @module What the server's middleware puts on a request's context for the routes. */
import type { Caller } from "../ports/auth-store.js";

export interface ServerEnv {
  Variables: {
    caller: Caller;
    /** Set when the caller came in through the console's session cookie rather than an API key. */
    viaSession: boolean;
  };
}
