/**
 * @module The registry server's defaults, in a module of their own: the commands and settings that only
 * name them (a flag's default, a configuration check) need not load the HTTP server.
 */
export const DEFAULT_PORT = 7423;
/** How long a stop waits for running calls before recording them as interrupted. */
export const DEFAULT_DRAIN_MS = 30_000;
