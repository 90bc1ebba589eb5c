/**
 * @module `GET /api/v1/openapi.json`: OpenAPI 3.1, built from the zod schemas the routes validate with,
 * so the description cannot drift from what the server accepts.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { EnvelopeSchema } from "../../seam/envelope.js";
import type { ServerEnv } from "../server-env.js";
import { AnswerBody, ApprovalListQuery, DecisionBody } from "./approvals-routes.js";
import { AttachmentListQuery, AttachmentRemoveQuery, AttachmentUploadForm } from "./attachments-routes.js";
import { AuditQuery } from "./audit-route.js";
import { ConnectCredentialBody, RevokeCredentialBody, StoreCredentialBody } from "./credentials-routes.js";
import { ScheduleListQuery } from "./schedules-routes.js";
import { SkillQuery } from "./skills-routes.js";
import { DiscoveryQuery } from "./tools-routes.js";

const ProblemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  detail: z.string(),
  code: z.string(),
});

type JsonSchema = Record<string, unknown> & { properties?: Record<string, unknown>; required?: string[] };

const schemaOf = (schema: z.ZodType, io: "input" | "output" = "output"): JsonSchema => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JsonSchema;
  return rest;
};

/** Query parameters from an object schema: one OpenAPI parameter per property. */
function queryParameters(schema: z.ZodType): unknown[] {
  const json = schemaOf(schema, "input");
  const required = new Set(json.required ?? []);
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: required.has(name),
    schema: property,
  }));
}

const problemResponse = {
  description: "a problem",
  content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
};
const json = (description: string, schema: unknown) => ({
  description,
  content: { "application/json": { schema } },
});
const idParameter = (name: string) => ({ name, in: "path", required: true, schema: { type: "string" } });

export function buildOpenApi(): unknown {
  const secured = { security: [{ apiKey: [] }], responses: { 401: problemResponse, 400: problemResponse } };
  return {
    openapi: "3.1.0",
    info: { title: "toolreg registry", version: "1" },
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer" } },
      schemas: { Problem: schemaOf(ProblemSchema), Envelope: schemaOf(EnvelopeSchema) },
    },
    paths: {
      "/manifest.json": {
        get: {
          ...secured,
          summary: "the caller's manifest",
          parameters: [
            { name: "schema", in: "query", schema: { enum: ["toolreg/3", "toolreg/2"] } },
            {
              name: "runtime",
              in: "query",
              schema: { type: "string", description: "the host's runtime version" },
            },
          ],
        },
      },
      "/api/v1/tools": {
        get: { ...secured, summary: "discovery", parameters: queryParameters(DiscoveryQuery) },
      },
      "/api/v1/tools/{name}": { get: { ...secured, summary: "one tool", parameters: [idParameter("name")] } },
      "/api/v1/tools/{name}/invoke": {
        post: {
          ...secured,
          summary: "call a tool through the seam; 202 when parked for approval",
          parameters: [
            idParameter("name"),
            { name: "Idempotency-Key", in: "header", schema: { type: "string", maxLength: 200 } },
            { name: "X-Toolreg-Run-Id", in: "header", schema: { type: "string" } },
            { name: "X-Toolreg-Tool-Call-Id", in: "header", schema: { type: "string" } },
          ],
          requestBody: {
            content: {
              "application/json": { schema: { type: "object", description: "the tool's arguments" } },
            },
          },
          responses: {
            ...secured.responses,
            200: json("the envelope", { $ref: "#/components/schemas/Envelope" }),
            202: json("parked", { $ref: "#/components/schemas/Envelope" }),
            413: problemResponse,
          },
        },
      },
      "/api/v1/approvals": {
        get: { ...secured, summary: "the approval inbox", parameters: queryParameters(ApprovalListQuery) },
      },
      "/api/v1/approvals/{id}": {
        get: { ...secured, summary: "one approval, to poll its outcome", parameters: [idParameter("id")] },
      },
      ...Object.fromEntries(
        (["approve", "deny", "retry"] as const).map((decision) => [
          `/api/v1/approvals/{id}/${decision}`,
          {
            post: {
              ...secured,
              summary:
                decision === "retry"
                  ? "run an interrupted call again (its outcome was lost): an operator's explicit act"
                  : `${decision} a parked call`,
              parameters: [idParameter("id")],
              requestBody: { content: { "application/json": { schema: schemaOf(DecisionBody, "input") } } },
            },
          },
        ]),
      ),
      "/api/v1/approvals/{id}/answer": {
        post: {
          ...secured,
          summary:
            "answer a parked call's questions (ask_questions): checked against them, recorded once with the approval, then the call resumes",
          parameters: [idParameter("id")],
          requestBody: { content: { "application/json": { schema: schemaOf(AnswerBody, "input") } } },
        },
      },
      "/api/v1/audit": {
        get: { ...secured, summary: "the audit trail", parameters: queryParameters(AuditQuery) },
      },
      "/api/v1/events": {
        get: {
          ...secured,
          summary:
            "Server-Sent Events: tool.update, approval.requested, approval.resolved, schedule.prompt (the caller's own)",
        },
      },
      "/api/v1/session": { get: { ...secured, summary: "who is calling" } },
      "/api/v1/credentials": {
        get: {
          ...secured,
          summary: "the stored credentials the caller may see, metadata only, and the refs it may connect",
        },
        post: {
          ...secured,
          summary:
            "store a pasted token (the caller's own; an operator's for the tenant or another principal)",
          requestBody: {
            content: { "application/json": { schema: schemaOf(StoreCredentialBody, "input") } },
          },
        },
      },
      "/api/v1/credentials/connect": {
        post: {
          ...secured,
          summary: "start an OAuth consent for the caller: the start link to open, signed in to the console",
          requestBody: {
            content: { "application/json": { schema: schemaOf(ConnectCredentialBody, "input") } },
          },
        },
      },
      "/api/v1/credentials/revoke": {
        post: {
          ...secured,
          summary: "revoke a credential: its secrets are erased",
          requestBody: {
            content: { "application/json": { schema: schemaOf(RevokeCredentialBody, "input") } },
          },
        },
      },
      "/api/v1/attachments": {
        get: {
          ...secured,
          summary:
            "the caller's attachments, newest first: those of every run, and those of runId when given",
          parameters: queryParameters(AttachmentListQuery),
        },
        post: {
          ...secured,
          summary:
            "upload a file for the caller's agents (tenant and principal are the key's); 413 over the cap",
          requestBody: {
            content: {
              "multipart/form-data": { schema: schemaOf(AttachmentUploadForm, "input") },
            },
          },
          responses: { ...secured.responses, 413: problemResponse },
        },
      },
      "/api/v1/attachments/{id}": {
        delete: {
          ...secured,
          summary: "remove one of the caller's attachments (of runId's run when it is run-scoped)",
          parameters: [idParameter("id"), ...queryParameters(AttachmentRemoveQuery)],
        },
      },
      "/api/v1/schedules": {
        get: {
          ...secured,
          summary: "the caller's schedules (an operator's key: the tenant's), newest first",
          parameters: queryParameters(ScheduleListQuery),
        },
      },
      "/api/v1/schedules/{id}": {
        delete: {
          ...secured,
          summary: "cancel one of the caller's schedules (an operator's key: the tenant's): it fires no more",
          parameters: [idParameter("id")],
        },
      },
      "/api/v1/skills": {
        get: {
          ...secured,
          summary: "the caller's tenant's skills by name, each with its latest version's description",
        },
      },
      "/api/v1/skills/{name}": {
        get: {
          ...secured,
          summary:
            "one of the caller's tenant's skills: its latest version, or version N (body, files, metadata)",
          parameters: [idParameter("name"), ...queryParameters(SkillQuery)],
        },
      },
      "/api/v1/consents/{id}/resume": {
        post: {
          ...secured,
          summary: "a call parked for consent, asked after by its requester: its result once resumed",
          parameters: [idParameter("id")],
        },
      },
      "/healthz": { get: { summary: "liveness", responses: { 200: json("alive", { type: "object" }) } } },
      "/readyz": {
        get: {
          summary: "readiness",
          responses: { 200: json("ready", { type: "object" }), 503: problemResponse },
        },
      },
    },
  };
}

export function openApiRoute(app: Hono<ServerEnv>): void {
  const document = JSON.stringify(buildOpenApi());
  app.get("/api/v1/openapi.json", (c) => c.body(document, 200, { "content-type": "application/json" }));
}
