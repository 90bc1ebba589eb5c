/**
 * The parts of src/ import downwards only (docs DESIGN "Layout as it grows"), type-only imports included:
 * every cycle in the tree began as a type-only edge. Run by `npm test` as `npm run deps`.
 */
const CORE = "^src/(declaration|registry|seam|policy|errors|ports|text)/";
const part = (name) => `^src/${name}/`;
/** A rule that `from` may import only `allowed` parts (besides itself and packages). */
const only = (name, from, allowed) => ({
  name,
  severity: "error",
  comment: `${from} may import only ${allowed.join(", ")}`,
  from: { path: from, pathNot: "\\.test(-d)?\\.ts$" },
  to: { path: "^src/", pathNot: [from, ...allowed] },
});

module.exports = {
  forbidden: [
    only("core-imports-only-core", CORE, [CORE]),
    only("stores-import-only-core", part("stores"), [CORE]),
    only("egress-imports-only-core", part("egress"), [CORE]),
    only("sandbox-imports-only-core", part("sandbox"), [CORE]),
    only("artifacts-import-only-core", part("artifacts"), [CORE]),
    only("tools-import-core-egress-sandbox-artifacts", part("tools"), [
      CORE,
      part("egress"),
      part("sandbox"),
      part("artifacts"),
    ]),
    only("catalog-imports-only-core", part("catalog"), [CORE]),
    only("embeddings-import-core-catalog", part("embeddings"), [CORE, part("catalog")]),
    only("adapters-import-core-catalog", part("adapters"), [CORE, part("catalog")]),
    only("mcp-imports-core-catalog-egress", part("mcp"), [CORE, part("catalog"), part("egress")]),
    only("server-imports-core-catalog-stores-mcp", part("server"), [
      CORE,
      part("catalog"),
      part("stores"),
      part("mcp"),
    ]),
    // The catalogue lint builds the tools to read their declarations, with stand-ins for what they need.
    only("check-imports-core-tools-catalog", part("check"), [
      CORE,
      part("tools"),
      part("catalog"),
      part("egress"),
      part("sandbox"),
      part("artifacts"),
    ]),
    only("test-kit-imports-core-memory-stores", part("test"), [CORE, "^src/stores/memory/"]),
    {
      name: "no-cycles",
      severity: "error",
      comment: "a cycle, type-only or not, ties two modules into one",
      from: { path: "^src/", pathNot: "\\.test(-d)?\\.ts$" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    // Type-only imports count: they are edges a refactor must respect too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
