/**
 * @module The Atlassian Document Format as this package reads and writes it: a tree of typed nodes
 * (developer.atlassian.com/cloud/jira/platform/apis/document/structure). Vendor documents are untrusted, so
 * every field is optional here and checked where it is used; a node type this package does not know is
 * still a node, read for its text.
 */
import { z } from "zod";

export interface AdfMark {
  type: string;
  attrs?: Record<string, unknown>;
}

export interface AdfNode {
  type: string;
  /** On the document node only: ADF's version, 1. */
  version?: number;
  attrs?: Record<string, unknown>;
  content?: AdfNode[];
  text?: string;
  marks?: AdfMark[];
}

/** A document: `{"version": 1, "type": "doc", "content": [...]}`. */
export interface AdfDocument extends AdfNode {
  type: "doc";
  version: 1;
  content: AdfNode[];
}

const MarkSchema = z.looseObject({ type: z.string(), attrs: z.record(z.string(), z.unknown()).optional() });

/** An ADF node as Jira sends it, checked loosely: what this package needs, nothing it would refuse to read. */
export const AdfNodeSchema: z.ZodType<AdfNode> = z.lazy(() =>
  z.looseObject({
    type: z.string(),
    attrs: z.record(z.string(), z.unknown()).optional(),
    content: z.array(AdfNodeSchema).optional(),
    text: z.string().optional(),
    marks: z.array(MarkSchema).optional(),
  }),
);
