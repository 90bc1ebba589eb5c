/**
 * @module The caller's tenant's skills over HTTP, to read: `GET /api/v1/skills` lists them (each with its
 * latest version's description) and `GET /api/v1/skills/:name` gives the latest version or `?version=N`.
 * Skills are written with `toolreg skills add` or an agent's skill_manage, which policy governs.
 */
import type { Hono } from "hono";
import { z } from "zod";
import { SKILL_LIMITS, skillNameProblem } from "../../ports/skill-store.js";
import { problem } from "../problem.js";
import type { ServerDeps } from "../server-deps.js";
import type { ServerEnv } from "../server-env.js";

export const SkillQuery = z.strictObject({
  version: z.coerce.number().int().min(1).max(SKILL_LIMITS.versionNumber).optional(),
});

export function skillsRoutes(app: Hono<ServerEnv>, deps: ServerDeps): void {
  const unconfigured = () => problem(404, "not_found", "this server keeps no skills");
  app.get("/api/v1/skills", async (c) => {
    if (!deps.skills) return unconfigured();
    return c.json({ skills: await deps.skills.list(c.get("caller").tenantId) });
  });
  app.get("/api/v1/skills/:name", async (c) => {
    if (!deps.skills) return unconfigured();
    const query = SkillQuery.safeParse(c.req.query());
    if (!query.success) return problem(400, "invalid_query", z.prettifyError(query.error));
    const name = c.req.param("name");
    const skill = skillNameProblem(name)
      ? undefined
      : await deps.skills.get(c.get("caller").tenantId, name, query.data.version);
    if (!skill)
      return problem(
        404,
        "not_found",
        `no skill ${name.slice(0, 64)}${query.data.version ? ` version ${query.data.version}` : ""}`,
      );
    return c.json(skill);
  });
}
