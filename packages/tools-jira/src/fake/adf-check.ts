/**
 * @module The fake's check of a rich-text field as Jira checks it: an Atlassian Document Format document
 * whose nodes nest as ADF's content rules allow, for the node types this package writes
 * (developer.atlassian.com/platform/framework/adf-builder/reference/nodes/…: doc, paragraph, heading,
 * bulletList, orderedList, listItem, blockquote, codeBlock, rule, table, tableRow, tableHeader, tableCell,
 * text, hardBreak; marks strong, em, code, link, strike, code beside nothing but a link). A node of another
 * type is refused too: this package never writes one, so one appearing is a mistake to see.
 */

interface Rule {
  /** The child types allowed; the first child's, when it is narrower. */
  children: readonly string[];
  first?: readonly string[];
  /** At least one child. */
  nonEmpty?: boolean;
}

const INLINE = ["text", "hardBreak"];
const RULES: Readonly<Record<string, Rule>> = {
  doc: {
    children: [
      "paragraph",
      "heading",
      "bulletList",
      "orderedList",
      "blockquote",
      "codeBlock",
      "rule",
      "table",
    ],
  },
  paragraph: { children: INLINE },
  heading: { children: INLINE },
  // blockquote: paragraph, lists, codeBlock, media and extensions; never a heading or another quote.
  blockquote: { children: ["paragraph", "bulletList", "orderedList", "codeBlock"], nonEmpty: true },
  bulletList: { children: ["listItem"], nonEmpty: true },
  orderedList: { children: ["listItem"], nonEmpty: true },
  // listItem: (paragraph | mediaSingle | codeBlock) first, then those or lists; never a quote or a heading.
  listItem: {
    first: ["paragraph", "codeBlock"],
    children: ["paragraph", "bulletList", "orderedList", "codeBlock"],
    nonEmpty: true,
  },
  codeBlock: { children: ["text"] },
  rule: { children: [] },
  table: { children: ["tableRow"], nonEmpty: true },
  tableRow: { children: ["tableHeader", "tableCell"], nonEmpty: true },
  tableHeader: { children: ["paragraph"], nonEmpty: true },
  tableCell: { children: ["paragraph"], nonEmpty: true },
  text: { children: [] },
  hardBreak: { children: [] },
};
const MARKS = new Set(["strong", "em", "code", "link", "strike"]);

interface Node {
  type?: unknown;
  version?: unknown;
  content?: unknown;
  text?: unknown;
  marks?: unknown;
  attrs?: { level?: unknown; href?: unknown };
}

/** What is wrong with `value` as a document Jira takes, or undefined when nothing is. */
export function adfProblem(value: unknown): string | undefined {
  const doc = value as Node | null;
  if (typeof doc !== "object" || doc === null || doc.type !== "doc" || doc.version !== 1) {
    return 'not a document: {"type": "doc", "version": 1, "content": [...]} is required';
  }
  const stack: { node: unknown; path: string }[] = [{ node: doc, path: "doc" }];
  while (stack.length > 0) {
    const { node, path } = stack.pop() as { node: unknown; path: string };
    const problem = nodeProblem(node as Node | null, path);
    if (problem !== undefined) return problem;
    const content = ((node as Node).content ?? []) as unknown[];
    content.forEach((child, index) => {
      stack.push({ node: child, path: `${path}/${String((child as Node | null)?.type)}[${index}]` });
    });
  }
  return undefined;
}

function nodeProblem(node: Node | null, path: string): string | undefined {
  if (typeof node !== "object" || node === null || typeof node.type !== "string")
    return `${path}: not a node`;
  const rule = RULES[node.type];
  if (rule === undefined) return `${path}: unknown node type ${node.type}`;
  if (node.content !== undefined && !Array.isArray(node.content)) return `${path}: content is not an array`;
  const children = (node.content ?? []) as Node[];
  if (rule.nonEmpty && children.length === 0) return `${path}: ${node.type} needs content`;
  for (const [index, child] of children.entries()) {
    const allowed = index === 0 && rule.first ? rule.first : rule.children;
    const type = String(child?.type);
    if (!allowed.includes(type)) return `${path}: ${type} is not allowed in ${node.type}`;
  }
  if (node.type === "heading") {
    const level = node.attrs?.level;
    if (typeof level !== "number" || !Number.isInteger(level) || level < 1 || level > 6) {
      return `${path}: a heading's level is 1 to 6`;
    }
  }
  if (node.type === "codeBlock" && children.some((child) => child.marks !== undefined)) {
    return `${path}: a code block's text takes no marks`;
  }
  if (node.type === "text") return textProblem(node, path);
  return undefined;
}

function textProblem(node: Node, path: string): string | undefined {
  if (typeof node.text !== "string" || node.text.length === 0) return `${path}: a text node needs text`;
  const marks = (node.marks ?? []) as Node[];
  if (!Array.isArray(marks)) return `${path}: marks is not an array`;
  const types = marks.map((mark) => String(mark?.type));
  const unknown = types.find((type) => !MARKS.has(type));
  if (unknown !== undefined) return `${path}: unknown mark ${unknown}`;
  if (types.includes("code") && types.some((type) => type !== "code" && type !== "link")) {
    return `${path}: the code mark combines only with link`;
  }
  const link = marks.find((mark) => mark?.type === "link");
  if (link && !(typeof link.attrs?.href === "string" && link.attrs.href.length > 0)) {
    return `${path}: a link needs an href`;
  }
  return undefined;
}
