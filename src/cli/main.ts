#!/usr/bin/env node
/** @module The `toolreg` executable. */
import { processIo } from "./cli-io.js";
import { runCli } from "./program.js";

process.exitCode = await runCli(process.argv.slice(2), processIo);
