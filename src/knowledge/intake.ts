/**
 * @module The knowledge intake: an addition read into sections (text, URL through egress, file bytes or an
 * attachment through the document extractor when the host has one) and ingested under the host's embedder.
 */
import type { EgressClient } from "../egress/egress-client.js";
import type { AttachmentStore } from "../ports/attachment-store.js";
import type { DocumentExtractor } from "../ports/document-extractor.js";
import type {
  KnowledgeBase,
  KnowledgeEmbedder,
  KnowledgeIntake,
  SourceKind,
} from "../ports/knowledge-base.js";
import { KNOWLEDGE_LIMITS } from "../ports/knowledge-base.js";
import {
  attachmentDocument,
  bytesDocument,
  type LoadedDocument,
  textDocument,
  urlDocument,
} from "./documents.js";
import { ingest } from "./ingest.js";

export interface IntakeDeps {
  knowledge: KnowledgeBase;
  embedder: KnowledgeEmbedder;
  /** For URLs; none refuses them. */
  egress?: EgressClient | undefined;
  attachments?: AttachmentStore | undefined;
  extractor?: DocumentExtractor | undefined;
  now?: () => number;
}

/** The most characters of a pasted text. */
export const MAX_TEXT_CHARS = 1_000_000;

export function createKnowledgeIntake(deps: IntakeDeps): KnowledgeIntake {
  return {
    async add(tenantId, addition) {
      let document: LoadedDocument;
      let kind: SourceKind;
      let origin: string;
      let fallbackTitle: string;
      switch (addition.from) {
        case "text": {
          if (addition.text.trim() === "") throw new RangeError("the text is empty");
          if (addition.text.length > MAX_TEXT_CHARS)
            throw new RangeError(`a text holds at most ${MAX_TEXT_CHARS.toLocaleString("en-US")} characters`);
          document = textDocument(addition.text);
          kind = "text";
          origin = "text";
          fallbackTitle = firstLine(addition.text);
          break;
        }
        case "url": {
          if (!deps.egress) throw new RangeError("this host fetches no URLs for the knowledge base");
          const page = await urlDocument(deps.egress, addition.url, deps.extractor);
          document = page;
          kind = "url";
          origin = page.finalUrl;
          fallbackTitle = page.finalUrl;
          break;
        }
        case "file": {
          document = await bytesDocument(addition.bytes, addition.mediaType, deps.extractor);
          kind = "text";
          origin = addition.name;
          fallbackTitle = addition.name;
          break;
        }
        case "attachment": {
          if (!deps.attachments) throw new RangeError("this host keeps no attachments");
          const { attachmentId, principalId, runId } = addition;
          const read = await attachmentDocument(
            deps.attachments,
            { tenantId, principalId, runId },
            attachmentId,
            deps.extractor,
          );
          document = read;
          kind = "attachment";
          origin = attachmentId;
          fallbackTitle = read.name;
          break;
        }
      }
      if (document.sections.length === 0) throw new RangeError("the document holds no text to index");
      const title = (addition.title?.trim() || document.title || fallbackTitle).slice(
        0,
        KNOWLEDGE_LIMITS.titleChars,
      );
      const result = await ingest(
        { knowledge: deps.knowledge, embedder: deps.embedder, ...(deps.now ? { now: deps.now } : {}) },
        {
          tenantId,
          ...(addition.sourceId ? { sourceId: addition.sourceId } : {}),
          title,
          kind,
          origin,
          authSubjects: addition.authSubjects,
          sections: document.sections,
        },
      );
      return { source: result.source, embedded: result.embedded };
    },
  };
}

function firstLine(text: string): string {
  const line =
    text
      .trim()
      .split("\n")[0]
      ?.replace(/^#+\s*/, "")
      .trim() ?? "";
  return line.length > 80 ? `${line.slice(0, 80)}…` : line || "Text";
}
