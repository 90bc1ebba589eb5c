#!/usr/bin/env node
/** @module The `toolreg` executable. */
import { processIo } from "./cli-io.js";
import { runCli } from "./program.js";

// A reader that stops early (`toolreg list | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2), processIo);
// A command is over: what still holds the event loop (a tool past a stop's drain, recorded interrupted,
// or a client's idle socket) does not hold the process. Unref'd, so a loop that empties exits at once.
setTimeout(() => process.exit(), 2_000).unref();
