/**
 * @module The registry server's HTTP application (Hono): public health, login and console routes; every
 * other route authenticated; every error in the problem shape; never a crash.
 */
import { Hono } from "hono";
import { methodNotAllowed } from "hono/method-not-allowed";
import type { AuthFailures } from "./auth-failures.js";
import { authenticate } from "./authenticate.js";
import { loadConsoleAssets } from "./console-assets.js";
import { corsAllowList } from "./cors-allow-list.js";
import { mcpChallenge, oauthRoutes } from "./oauth/oauth-routes.js";
import { problem } from "./problem.js";
import { approvalsRoutes } from "./routes/approvals-routes.js";
import { attachmentsRoutes } from "./routes/attachments-routes.js";
import { auditRoute } from "./routes/audit-route.js";
import { consentBrowserRoutes, consentRoutes } from "./routes/consent-routes.js";
import { credentialsRoutes } from "./routes/credentials-routes.js";
import { eventsRoute } from "./routes/events-route.js";
import { knowledgeRoutes } from "./routes/knowledge-routes.js";
import { manifestRoute } from "./routes/manifest-route.js";
import { mcpRoute } from "./routes/mcp-route.js";
import { openApiRoute } from "./routes/openapi-route.js";
import { schedulesRoutes } from "./routes/schedules-routes.js";
import { loginRoute, sessionRoutes } from "./routes/session-routes.js";
import { skillsRoutes } from "./routes/skills-routes.js";
import { toolsRoutes } from "./routes/tools-routes.js";
import { SECURITY_HEADERS } from "./security-headers.js";
import type { ServerDeps } from "./server-deps.js";
import type { ServerEnv } from "./server-env.js";

export function createServerApp(
  deps: ServerDeps,
  options: { consoleDir?: string; authFailures?: AuthFailures; publicUrl?: string } = {},
): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  // One tracker for every authenticated entry (the manifest, /api, /mcp, the console login).
  const authenticated = authenticate(deps.auth, {
    keys: deps.keys,
    failures: options.authFailures,
    logger: deps.logger,
  });
  // The busiest route goes first, ahead of the middleware chain, with its own authentication and headers:
  // the rest of the chain costs more than serving its cached bytes.
  manifestRoute(app, deps, authenticated);
  // Ahead of everything else there: a browser's preflight is answered (or refused) before any other check.
  const cors = corsAllowList(deps.corsOrigins);
  for (const path of ["/mcp", "/.well-known/*", "/oauth/*"]) app.use(path, cors);
  app.use(
    methodNotAllowed({
      app,
      onMethodNotAllowed: (_c, allowed) =>
        problem(405, "method_not_allowed", `use ${allowed.join(" or ")}`, {}, { allow: allowed.join(", ") }),
    }),
  );
  // Set before the handler, on the context: changing a finished response's headers would make the node
  // adapter rebuild it, which costs more than most routes. Responses built outside the context (problems,
  // console files, the manifest) carry the headers themselves.
  app.use(async (c, next) => {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.header(name, value);
    await next();
  });

  app.get("/healthz", (c) => c.json({ ok: true }));
  app.get("/readyz", async (c) => {
    try {
      await deps.stores.approvals.list({ tenantId: "readiness-probe", limit: 1 });
    } catch (error) {
      return problem(503, "not_ready", `the store is not answering: ${(error as Error).message}`);
    }
    return deps.inflight.closed
      ? problem(503, "shutting_down", "the server is shutting down")
      : c.json({ ok: true });
  });
  loginRoute(app, deps, options.authFailures);
  consentBrowserRoutes(app, deps);
  oauthRoutes(app, deps, options.publicUrl);
  const assets = loadConsoleAssets(options.consoleDir);
  const serveAsset = (name: string) => {
    const asset = assets.get(name);
    if (!asset) return problem(404, "not_found", "no such console file");
    return new Response(asset.body, {
      headers: {
        ...SECURITY_HEADERS,
        "content-type": asset.type,
        "cache-control": "no-cache",
        "content-security-policy":
          "default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
      },
    });
  };
  app.get("/", () => serveAsset("index.html"));
  app.get("/console/:file", (c) => serveAsset(c.req.param("file")));

  app.use("/api/*", authenticated);
  openApiRoute(app);
  toolsRoutes(app, deps);
  approvalsRoutes(app, deps);
  auditRoute(app, deps);
  eventsRoute(app, deps);
  sessionRoutes(app, deps);
  consentRoutes(app, deps);
  credentialsRoutes(app, deps);
  attachmentsRoutes(app, deps);
  knowledgeRoutes(app, deps);
  skillsRoutes(app, deps);
  schedulesRoutes(app, deps);

  // The same check, but a 401 names where an OAuth client gets a token for /mcp.
  const mcpAuthenticated = authenticate(deps.auth, {
    keys: deps.keys,
    failures: options.authFailures,
    logger: deps.logger,
    challenge: mcpChallenge(options.publicUrl),
  });
  mcpRoute(app, deps, mcpAuthenticated);

  app.notFound((c) =>
    problem(404, "not_found", `no route for ${c.req.method} ${new URL(c.req.url).pathname.slice(0, 200)}`),
  );
  app.onError((error, c) => {
    deps.logger.error({ err: error, path: c.req.path }, "request failed");
    return problem(500, "internal", "the server failed on this request; it has been logged");
  });
  return app;
}
