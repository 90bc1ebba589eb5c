// A catalogue for the built CLI (`--registry`): the notes toolkit, whose auth is a token or an OAuth
// connection at the endpoints in $NOTES_AUTHORIZE_URL and $NOTES_TOKEN_URL. It is built, not run: the CLI
// tests connect, list and revoke its credential.
import { callOptions, createToolkitHost, defineToolkit, throwIfHttpError } from "toolreg/toolkit";
import { z } from "zod";

const notes = defineToolkit({
  id: "notes",
  version: "0.1.0",
  package: "toolreg-test-notes",
  description: "A notes service, for the credentials CLI test.",
  config: z.strictObject({ credentialRef: z.string().default("notes"), baseUrl: z.string() }),
  auth: {
    kind: "token-or-oauth",
    header: "authorization",
    scheme: "Bearer",
    oauth: {
      authorizeUrl: process.env.NOTES_AUTHORIZE_URL ?? "https://notes.example/authorize",
      tokenUrl: process.env.NOTES_TOKEN_URL ?? "https://notes.example/token",
    },
  },
  tools: [
    {
      name: "notes_get_note",
      description: "Reads one note by its id.",
      category: "productivity",
      effect: "read",
      input: z.strictObject({ id: z.string().regex(/^n-[a-z0-9-]{1,40}$/) }),
      oauthScopes: ["notes:read"],
      async run(input, context, env) {
        const response = await env.egress.request(`${env.base}/notes/${input.id}`, callOptions(context));
        throwIfHttpError(response);
        return { data: JSON.parse(response.body.toString()) };
      },
    },
  ],
  bind: (config, host) => ({
    base: config.baseUrl,
    egress: host.egress({
      hosts: [new URL(config.baseUrl).hostname],
      credential: { header: "authorization", scheme: "Bearer", credentialRef: config.credentialRef },
    }),
  }),
});

export const catalogue = {
  tools: await notes.build({ baseUrl: "https://notes.example/api" }, createToolkitHost()),
};
