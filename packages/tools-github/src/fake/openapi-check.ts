/**
 * @module Validates the fake's answers against GitHub's official OpenAPI description (@octokit/openapi).
 * TODO(github helper): implement — find the operation by method and path template, pick the response
 * schema for the status, validate with ajv (OpenAPI 3.0 `nullable`), throw naming operation and mismatch.
 */
import type { ResponseCheck } from "./github-fake.js";

export const checkAgainstOpenApi: ResponseCheck = () => {};
