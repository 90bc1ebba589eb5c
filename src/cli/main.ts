#!/usr/bin/env node
/** @module The `toolreg` executable. */
import { processIo } from "./cli-io.js";
import { otlpSignals } from "./otlp-signals.js";

// A reader that stops early (`toolreg list | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

// OTLP export, when the environment asks for it, is set up before the program loads and a command runs:
// a meter taken before its provider is registered would record nothing.
const signals = otlpSignals(process.env);
const telemetry = signals ? (await import("./otlp-export.js")).startOtlpExport(signals) : undefined;
const { runCli } = await import("./program.js");

try {
  process.exitCode = await runCli(process.argv.slice(2), processIo);
} finally {
  // The last batch of spans and the last metric reading go out before the process does, whatever happened.
  await telemetry?.shutdown();
}
// A command is over: what still holds the event loop (a tool past a stop's drain, recorded interrupted,
// or a client's idle socket) does not hold the process. Unref'd, so a loop that empties exits at once.
setTimeout(() => process.exit(), 2_000).unref();
