/**
 * @module A vendor toolkit as a package would write it with `defineToolkit`: a notes service reached through
 * egress with its credential injected, whose auth is a token or an OAuth connection at the test provider.
 */
import { z } from "zod";
import {
  callOptions,
  defineToolkit,
  type EgressClient,
  throwIfHttpError,
  toolFor,
} from "../../src/tools/toolkit/index.js";

interface NotesEnv {
  egress: EgressClient;
  base: string;
}

const notesTool = toolFor<NotesEnv>();

const getNote = notesTool({
  name: "notes_get_note",
  description: "Reads one note by its id.",
  category: "productivity",
  effect: "read",
  input: z.strictObject({ id: z.string().regex(/^n-[a-z0-9-]{1,40}$/) }),
  oauthScopes: ["notes:read"],
  async run(input, context, notes) {
    const response = await notes.egress.request(`${notes.base}/notes/${input.id}`, callOptions(context));
    throwIfHttpError(response);
    return { data: JSON.parse(response.body.toString()) as unknown };
  },
});

const addNote = notesTool({
  name: "notes_add_note",
  description: "Adds a note.",
  category: "productivity",
  effect: "external-write",
  input: z.strictObject({ text: z.string().min(1).max(200) }),
  oauthScopes: ["notes:write"],
  async run(input, context, notes) {
    const response = await notes.egress.request(`${notes.base}/notes`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(input),
      ...callOptions(context),
    });
    throwIfHttpError(response);
    return { data: JSON.parse(response.body.toString()) as unknown };
  },
});

export function notesToolkit(oauth: { authorizeUrl: string; tokenUrl: string; issuer?: string }) {
  return defineToolkit({
    id: "notes",
    version: "0.1.0",
    package: "toolreg-test-notes",
    description: "A notes service, for the consent test.",
    config: z.strictObject({ credentialRef: z.string().min(1).default("notes"), baseUrl: z.url() }),
    auth: { kind: "token-or-oauth", header: "authorization", scheme: "Bearer", oauth },
    tools: [getNote, addNote],
    bind: (config, host): NotesEnv => ({
      base: config.baseUrl.replace(/\/$/, ""),
      egress: host.egress({
        hosts: [new URL(config.baseUrl).hostname],
        credential: { header: "authorization", scheme: "Bearer", credentialRef: config.credentialRef },
      }),
    }),
  });
}
