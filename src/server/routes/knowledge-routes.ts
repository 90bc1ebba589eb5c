/**
 * @module `GET/POST /api/v1/kb` and `DELETE /api/v1/kb/:id`: the caller's tenant's knowledge base. Anyone of
 * the tenant lists the sources they may read; adding and removing need an operator key or the `kb:write`
 * scope, since a source added is read by everyone its subjects name.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import {
  IngestError,
  KNOWLEDGE_LIMITS,
  type KnowledgeAddition,
  SupersededIngestError,
} from "../../ports/knowledge-base.js";
import { knowledgeReaderOf } from "../../ports/knowledge-subjects.js";
import { IDENTIFIER } from "../../seam/context.js";
import { problem } from "../problem.js";
import { readJsonBody } from "../read-json-body.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

/** The scope that lets a non-operator key add and remove its tenant's knowledge sources. */
export const KB_WRITE_SCOPE = "kb:write";

const subject = z
  .string()
  .trim()
  .min(1)
  .max(KNOWLEDGE_LIMITS.subjectChars)
  .regex(/^[^\p{Cc}]+$/u);
const AddBody = z
  .strictObject({
    text: z.string().min(1).max(KNOWLEDGE_LIMITS.textChars).optional(),
    url: z
      .url({ protocol: /^https?$/ })
      .max(2_000)
      .optional(),
    /** One of the caller's own attachments (a PDF, DOCX, page or text), read as the caller. */
    attachmentId: z
      .string()
      .regex(/^att_[0-9a-f]{1,64}$/)
      .optional(),
    /** The run a run-scoped attachment belongs to. */
    runId: z.string().regex(IDENTIFIER).optional(),
    title: z.string().trim().min(1).max(KNOWLEDGE_LIMITS.titleChars).optional(),
    subjects: z.array(subject).min(1).max(KNOWLEDGE_LIMITS.authSubjects).optional(),
    /** Re-index this source. */
    id: z
      .string()
      .regex(/^ks_[0-9a-f]{16}$/)
      .optional(),
  })
  .refine(
    (body) => [body.text, body.url, body.attachmentId].filter((given) => given !== undefined).length === 1,
    "give one of text, url or attachmentId",
  );

const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(KNOWLEDGE_LIMITS.listPage).default(50),
  after: z.string().max(200).optional(),
});

export function knowledgeRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  const { knowledge } = deps;
  const mayWrite = (caller: ServerEnv["Variables"]["caller"]) =>
    caller.operator || caller.scopes.includes(KB_WRITE_SCOPE);
  app.get("/api/v1/kb", async (c) => {
    if (!knowledge) return problem(404, "no_knowledge_base", "this server keeps no knowledge base");
    const parsed = ListQuery.safeParse(c.req.query());
    if (!parsed.success) return problem(400, "invalid_query", z.prettifyError(parsed.error));
    const caller = c.get("caller");
    let page: Awaited<ReturnType<typeof knowledge.base.list>>;
    try {
      // An operator sees every source of the tenant; anyone else the ones they may read, filtered in the store.
      page = await knowledge.base.list(caller.tenantId, {
        ...parsed.data,
        ...(caller.operator ? {} : { subjects: knowledgeReaderOf(caller).subjects }),
      });
    } catch (error) {
      if (error instanceof RangeError)
        return problem(400, "invalid_cursor", "after must be a `next` value from a previous page");
      throw error;
    }
    return c.json({ sources: page.sources, next: page.next ?? null });
  });

  app.post("/api/v1/kb", async (c) => {
    if (!knowledge) return problem(404, "no_knowledge_base", "this server keeps no knowledge base");
    const caller = c.get("caller");
    if (!mayWrite(caller))
      return problem(
        403,
        "not_a_kb_writer",
        `adding knowledge needs an operator key or the ${KB_WRITE_SCOPE} scope`,
      );
    const body = await readJsonBody(c, { maxBytes: 1_100_000, timeoutMs: deps.bodyTimeoutMs });
    if (!body.ok) return body.response;
    const parsed = AddBody.safeParse(body.value);
    if (!parsed.success) return problem(400, "invalid_body", z.prettifyError(parsed.error));
    const { text, url, attachmentId, runId, title, subjects, id } = parsed.data;
    const common = {
      ...(subjects ? { authSubjects: subjects } : {}),
      ...(title ? { title } : {}),
      ...(id ? { sourceId: id } : {}),
    };
    const addition: KnowledgeAddition =
      text !== undefined
        ? { from: "text", text, ...common }
        : attachmentId !== undefined
          ? // No run named: only the caller's attachments of every run are readable (no run has the empty id).
            {
              from: "attachment",
              attachmentId,
              principalId: caller.principalId,
              runId: runId ?? "",
              ...common,
            }
          : { from: "url", url: url as string, ...common };
    try {
      const { source, embedded } = await knowledge.intake.add(caller.tenantId, addition, c.req.raw.signal);
      return c.json({ source, embedded }, id ? 200 : 201);
    } catch (error) {
      if (error instanceof IngestError)
        return problem(503, "ingestion_interrupted", error.message, { sourceId: error.sourceId });
      if (error instanceof SupersededIngestError)
        return problem(409, "reindex_superseded", error.message, { sourceId: error.sourceId });
      if (error instanceof ToolFailure) return problem(400, error.code, error.message);
      if (error instanceof RangeError) return problem(400, "unreadable_source", error.message);
      throw error;
    }
  });

  app.delete("/api/v1/kb/:id", async (c) => {
    if (!knowledge) return problem(404, "no_knowledge_base", "this server keeps no knowledge base");
    const caller = c.get("caller");
    if (!mayWrite(caller))
      return problem(
        403,
        "not_a_kb_writer",
        `removing knowledge needs an operator key or the ${KB_WRITE_SCOPE} scope`,
      );
    const id = c.req.param("id");
    if (!(await knowledge.base.remove(caller.tenantId, id)))
      return problem(404, "no_such_source", `no knowledge source ${id.slice(0, 40)} in this tenant`);
    return c.json({ id, removed: true });
  });
}
