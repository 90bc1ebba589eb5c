/** @module `query_json`: a JMESPath query over JSON text, bounded in input, depth, time, memory and output. */
import { compile } from "@jmespath-community/jmespath";
import { z } from "zod";
import type { ToolOutput } from "../../declaration/define-tool.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { stringifyBounded } from "./bounded-json.js";
import { dataTool } from "./data-env.js";
import { scanJson } from "./json-scan.js";
import { evaluateInWorker, type WorkerLimits } from "./query-worker.js";

export const QUERY_JSON_LIMITS = {
  /** Characters of JSON text accepted. */
  inputChars: 1_048_576,
  /** Characters of expression accepted. */
  expressionChars: 1_000,
  /** Nesting levels of the input; deeper is refused before parsing. */
  depth: 64,
  /** Bytes of result JSON returned; a larger result is cut and reported. */
  outputBytes: 32 * 1024,
  /** Wall-clock time for one evaluation. */
  timeoutMs: 2_000,
  /** Heap of the evaluation worker. */
  heapMb: 64,
} as const;

/** The result when it fits; otherwise which bound cut it. */
export interface QueryJsonData {
  result?: unknown;
  truncated: boolean;
  limit?: "outputBytes";
  outputBytes?: number;
}

const input = z.object({
  json: z
    .string()
    .max(QUERY_JSON_LIMITS.inputChars)
    .describe("the JSON document, as text (not a path or URL)"),
  expression: z
    .string()
    .min(1)
    .max(QUERY_JSON_LIMITS.expressionChars)
    .describe('a JMESPath expression, e.g. "items[?price > `10`].name | sort(@)"'),
});

export const queryJsonSpec = dataTool({
  name: "query_json",
  description:
    "Queries JSON text with a JMESPath expression (filter, project, sort, count, reshape) and returns the result as JSON. Pass the JSON itself, never a path or URL. Use it to pick what you need out of a large JSON document instead of reading all of it. JMESPath is used rather than JSONata because it is not Turing-complete: a query cannot loop. Limits: 1 MiB of JSON, 64 levels of nesting, 2 s, and 32 KiB of result (a larger result is cut and marked truncated).",
  category: "data",
  effect: "read",
  input,
  limits: { outputBytes: 96 * 1024 },
  async run({ json, expression }, context) {
    const scanned = scanJson(json, QUERY_JSON_LIMITS.depth);
    if (!scanned.ok) {
      const where = `line ${scanned.line}, column ${scanned.column} (position ${scanned.position})`;
      throw new ToolFailure("invalid_input", `json is not valid JSON at ${where}: ${scanned.message}`, {
        details: { field: "json", reason: scanned.reason, ...lineDetails(scanned) },
      });
    }
    checkExpression(expression);
    // The seam aborts the signal at its own deadline, so the worker never outlives the call.
    const limits: WorkerLimits = { timeoutMs: QUERY_JSON_LIMITS.timeoutMs, heapMb: QUERY_JSON_LIMITS.heapMb };
    const outcome = await evaluateInWorker(json, expression, limits, context.signal);
    switch (outcome.kind) {
      case "aborted":
        throw new ToolFailure("timeout", "query_json was cancelled", { details: { aborted: true } });
      case "timeout":
        throw new ToolFailure(
          "timeout",
          `the query ran longer than ${limits.timeoutMs} ms; narrow it (filter or slice earlier)`,
          { details: { limit: "timeoutMs", timeoutMs: limits.timeoutMs } },
        );
      case "memory":
        throw tooBig(`needed more than ${QUERY_JSON_LIMITS.heapMb} MiB`);
      case "error":
        if (/invalid (array|string) length/i.test(outcome.message))
          throw tooBig("grew past what fits in memory");
        throw new ToolFailure("invalid_input", `expression failed: ${outcome.message}`, {
          details: { field: "expression" },
        });
      case "value":
        return present(outcome.value);
    }
  },
});

/** Syntax errors are found here, without starting a worker. */
function checkExpression(expression: string): void {
  try {
    compile(expression);
  } catch (error) {
    const message =
      error instanceof RangeError
        ? "the expression nests too deeply"
        : error instanceof Error
          ? error.message
          : String(error);
    throw new ToolFailure("invalid_input", `expression is not valid JMESPath: ${message}`, {
      details: { field: "expression" },
    });
  }
}

function present(value: unknown): ToolOutput<QueryJsonData> {
  const limit = QUERY_JSON_LIMITS.outputBytes;
  const bounded = stringifyBounded(value, limit);
  if (bounded.complete) {
    return { content: bounded.text, data: { result: value, truncated: false } };
  }
  return {
    content: `${bounded.text}\n… [truncated: the result is larger than ${limit} bytes; narrow the expression, e.g. with a slice [:20] or a projection]`,
    data: { truncated: true, limit: "outputBytes", outputBytes: limit },
    truncated: true,
  };
}

function tooBig(how: string): ToolFailure {
  return new ToolFailure("invalid_input", `the query ${how}; narrow it (filter or slice earlier)`, {
    details: { field: "expression", limit: "heapMb", heapMb: QUERY_JSON_LIMITS.heapMb },
  });
}

function lineDetails(scanned: { line: number; column: number; position: number; message: string }) {
  return {
    line: scanned.line,
    column: scanned.column,
    position: scanned.position,
    problem: scanned.message,
  };
}
