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
import { hasUnstorableChar } from "../ports/knowledge-ranking.js";
import { TENANT_SUBJECT } from "../ports/knowledge-subjects.js";
import {
  attachmentDocument,
  bytesDocument,
  DOCUMENT_CAPS,
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

const TRUNCATED = {
  max_chars: `only its first ${DOCUMENT_CAPS.maxChars.toLocaleString("en-US")} characters were indexed`,
  max_pages: `only its first ${DOCUMENT_CAPS.maxPages} pages were indexed`,
} as const;

export function createKnowledgeIntake(deps: IntakeDeps): KnowledgeIntake {
  return {
    async add(tenantId, addition, signal) {
      // A re-index that names no subjects keeps the source's: it never widens who reads it by omission.
      let authSubjects = addition.authSubjects;
      if (authSubjects === undefined && addition.sourceId !== undefined) {
        const current = await deps.knowledge.get(tenantId, addition.sourceId);
        if (!current) throw new RangeError(`no knowledge source ${addition.sourceId}`);
        authSubjects = current.pendingSubjects ?? current.authSubjects;
      }
      if (addition.title !== undefined && hasUnstorableChar(addition.title))
        throw new RangeError("the title holds a NUL or a broken (lone surrogate) character");
      let document: LoadedDocument;
      let kind: SourceKind;
      let origin: string;
      let fallbackTitle: string;
      switch (addition.from) {
        case "text": {
          if (addition.text.trim() === "") throw new RangeError("the text is empty");
          if (addition.text.length > KNOWLEDGE_LIMITS.textChars)
            throw new RangeError(
              `a text holds at most ${KNOWLEDGE_LIMITS.textChars.toLocaleString("en-US")} characters`,
            );
          if (hasUnstorableChar(addition.text))
            throw new RangeError("the text holds a NUL or a broken (lone surrogate) character; remove it");
          document = textDocument(addition.text);
          kind = "text";
          origin = "text";
          fallbackTitle = firstLine(addition.text);
          break;
        }
        case "url": {
          if (!deps.egress) throw new RangeError("this host fetches no URLs for the knowledge base");
          const page = await urlDocument(deps.egress, addition.url, deps.extractor, signal);
          document = page;
          kind = "url";
          origin = page.finalUrl;
          fallbackTitle = page.finalUrl;
          break;
        }
        case "file": {
          document = await bytesDocument(addition.bytes, addition.mediaType, deps.extractor, signal);
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
            signal,
          );
          document = read;
          kind = "attachment";
          origin = attachmentId;
          fallbackTitle = read.name;
          break;
        }
      }
      if (document.sections.length === 0) throw new RangeError("the document holds no text to index");
      // A document's own title or a name may hold control characters (a PDF's metadata); they become spaces.
      const title = printable(
        addition.title?.trim() || printable(document.title ?? "") || fallbackTitle,
      ).slice(0, KNOWLEDGE_LIMITS.titleChars);
      const result = await ingest(
        { knowledge: deps.knowledge, embedder: deps.embedder, ...(deps.now ? { now: deps.now } : {}) },
        {
          tenantId,
          ...(addition.sourceId ? { sourceId: addition.sourceId } : {}),
          title,
          kind,
          origin,
          authSubjects: authSubjects ?? [TENANT_SUBJECT],
          sections: document.sections,
          ...(document.stoppedBy ? { note: `the document is longer: ${TRUNCATED[document.stoppedBy]}` } : {}),
          ...(signal ? { signal } : {}),
        },
      );
      return { source: result.source, embedded: result.embedded };
    },
  };
}

function printable(text: string): string {
  return text
    .replace(/[\p{Cc}\p{Cs}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
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
