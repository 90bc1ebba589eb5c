/**
 * @module Attachments over HTTP: a person uploads a file (multipart/form-data) for their agents, lists and
 * removes their own. The tenant and principal are the authenticated key's, never the request's; an upload
 * over the cap is refused before it is read whole (the declared length, then a streaming limit).
 */
import type { Context, Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { attachmentMediaType, isMediaType } from "../../ports/attachment-media-type.js";
import { type AddOutcome, ATTACHMENT_LIMITS, type AttachmentReader } from "../../ports/attachment-store.js";
import { IDENTIFIER } from "../../seam/context.js";
import { problem } from "../problem.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

/** Room for the multipart boundaries, part headers and the runId field beside the file. */
const MULTIPART_OVERHEAD = 64 * 1024;

const RunId = z.string().regex(IDENTIFIER, "a run id: letters, digits and . _ : @ / -, at most 200");

export const AttachmentListQuery = z.strictObject({
  /** The run whose attachments are listed beside the caller's attachments of every run. */
  runId: RunId.optional(),
  limit: z.coerce.number().int().min(1).max(ATTACHMENT_LIMITS.listPage).default(50),
  /** The `next` of the previous page. */
  after: z.string().max(200).optional(),
});

export const AttachmentRemoveQuery = z.strictObject({ runId: RunId.optional() });

/** The upload's form, for the OpenAPI document; the route reads the parts itself, the file without copying it. */
export const AttachmentUploadForm = z.object({
  file: z.string().meta({
    contentMediaType: "application/octet-stream",
    description: "the file; its filename is the attachment's name",
  }),
  runId: RunId.optional().describe("the run it is for; without one, every run of the uploader reads it"),
});

const tooLarge = (limit: number) =>
  problem(
    413,
    "attachment_too_large",
    `an attachment is at most ${limit} bytes (${Math.round(limit / (1024 * 1024))} MiB)`,
    { limit },
    { connection: "close" },
  );

/** The part's own media type, unless it says nothing: a browser or client with no idea sends an octet stream. */
const statedType = (type: string) =>
  isMediaType(type) && !/^application\/octet-stream\b/i.test(type) ? type : undefined;

/** What a refused add answers: the limit it met, named. */
function refused(outcome: Exclude<AddOutcome, { added: true }>): Response {
  switch (outcome.reason) {
    case "too_large":
      return tooLarge(outcome.limit);
    case "quota":
      return problem(
        409,
        "attachment_quota",
        `the tenant already keeps ${outcome.limit} bytes of attachments: remove some, or wait for old ones to expire`,
        { limit: outcome.limit },
      );
    case "principal_quota":
      return problem(
        409,
        "attachment_quota",
        `you already keep ${outcome.limit} bytes of attachments, your share of the tenant's: remove some, or wait for old ones to expire`,
        { limit: outcome.limit, scope: "principal" },
      );
    case "bad_name":
      return problem(
        422,
        "bad_attachment_name",
        `a file name is 1 to ${outcome.limit} characters, with no folder, / or \\, and no control character`,
        { limit: outcome.limit },
      );
  }
}

export function attachmentsRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  const unconfigured = () => problem(404, "attachments_not_configured", "this server keeps no attachments");
  const readerOf = (c: Context<ServerEnv>, runId: string | undefined): AttachmentReader => {
    const caller = c.get("caller");
    // No run named: only the caller's attachments of every run match (no run has the empty id).
    return { tenantId: caller.tenantId, principalId: caller.principalId, runId: runId ?? "" };
  };

  app.post(
    "/api/v1/attachments",
    bodyLimit({
      maxSize: ATTACHMENT_LIMITS.bytes + MULTIPART_OVERHEAD,
      onError: () => tooLarge(ATTACHMENT_LIMITS.bytes),
    }),
    async (c) => {
      const store = deps.attachments;
      if (!store) return unconfigured();
      const type = c.req.header("content-type") ?? "";
      if (!/^multipart\/form-data\b/i.test(type))
        return problem(
          415,
          "unsupported_media_type",
          "send the file as multipart/form-data, in a part named file",
        );
      let form: FormData;
      try {
        form = await c.req.raw.formData();
      } catch (error) {
        return problem(400, "malformed_form", `the form could not be read: ${(error as Error).message}`);
      }
      const file = form.get("file");
      if (!(file instanceof File))
        return problem(422, "file_required", "send the file in a multipart part named file, with a filename");
      const runField = form.get("runId");
      const runId = runField === null || runField === "" ? undefined : RunId.safeParse(runField);
      if (runId && !runId.success)
        return problem(422, "invalid_body", `runId: ${z.prettifyError(runId.error)}`);
      const caller = c.get("caller");
      const outcome = await store.add(
        { tenantId: caller.tenantId, principalId: caller.principalId, runId: runId?.data },
        {
          name: file.name,
          mediaType: statedType(file.type) ?? attachmentMediaType(file.name),
          bytes: new Uint8Array(await file.arrayBuffer()),
          now: Date.now(),
        },
      );
      return outcome.added ? c.json(outcome.attachment, 201) : refused(outcome);
    },
  );

  app.get("/api/v1/attachments", async (c) => {
    const store = deps.attachments;
    if (!store) return unconfigured();
    const query = AttachmentListQuery.safeParse(c.req.query());
    if (!query.success) return problem(400, "invalid_query", z.prettifyError(query.error));
    const { runId, limit, after } = query.data;
    try {
      return c.json(await store.list(readerOf(c, runId), { limit, after }));
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      return problem(400, "invalid_query", "after is not a next value this list gave");
    }
  });

  app.delete("/api/v1/attachments/:id", async (c) => {
    const store = deps.attachments;
    if (!store) return unconfigured();
    const query = AttachmentRemoveQuery.safeParse(c.req.query());
    if (!query.success) return problem(400, "invalid_query", z.prettifyError(query.error));
    const id = c.req.param("id");
    // Another person's, another run's and a missing one are the same answer.
    if (!(await store.remove(readerOf(c, query.data.runId), id)))
      return problem(404, "not_found", `there is no attachment ${id.slice(0, 100)} of yours to remove`);
    return c.body(null, 204);
  });
}
