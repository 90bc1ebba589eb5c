/** @module The IPC messages between the server benchmark and a target server in its child process. */

/** Parent to child: start with these options, report CPU time used so far, or stop and exit. */
export type ParentMessage = { type: "start"; options: unknown } | { type: "cpu" } | { type: "stop" };

/** Child to parent: listening (with what the target reports), or its CPU microseconds so far. */
export type ChildMessage = { type: "ready"; ready: unknown } | { type: "cpu"; micros: number };
