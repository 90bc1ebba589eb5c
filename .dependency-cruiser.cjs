/**
 * The parts of src/ (and the vendor packages) import downwards only (docs DESIGN "Layout as it grows"), type-only imports included:
 * every cycle in the tree began as a type-only edge. Run by `npm test` as `npm run deps`.
 */
const CORE = "^src/(declaration|registry|seam|policy|errors|ports|text|telemetry)/";
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
    only("documents-import-only-core", part("documents"), [CORE]),
    // Ingestion reads documents and pages: the extractor and the egress client, nothing above them.
    only("knowledge-imports-core-egress-documents", part("knowledge"), [
      CORE,
      part("egress"),
      part("documents"),
    ]),
    only("tools-import-core-egress-sandbox-artifacts-documents", part("tools"), [
      CORE,
      part("egress"),
      part("sandbox"),
      part("artifacts"),
      part("documents"),
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
    {
      name: "vendor-packages-import-only-the-toolkit-api",
      severity: "error",
      comment: "a vendor package is written against toolreg/toolkit alone, so core can change behind it",
      from: { path: "^packages/[^/]+/src/", pathNot: ["\\.test\\.ts$", "/fake/"] },
      to: { path: "^src/", pathNot: "^src/tools/toolkit/" },
    },
    {
      name: "vendor-package-tests-import-the-toolkit-api-and-test-kit",
      severity: "error",
      comment:
        "a vendor package's tests and fakes use what its users test with: toolreg, toolreg/toolkit, toolreg/test",
      from: { path: ["^packages/[^/]+/src/.*\\.test\\.ts$", "^packages/[^/]+/src/fake/"] },
      to: { path: "^src/", pathNot: ["^src/tools/toolkit/", "^src/test/", "^src/index\\.ts$"] },
    },
    {
      name: "vendor-packages-import-no-other-package",
      severity: "error",
      comment: "each vendor package is released on its own",
      from: { path: "^packages/([^/]+)/" },
      to: { path: "^packages/", pathNot: "^packages/$1/" },
    },
    only("test-kit-imports-core-memory-stores", part("test"), [CORE, "^src/stores/memory/"]),
    {
      name: "no-cycles",
      severity: "error",
      comment: "a cycle, type-only or not, ties two modules into one",
      from: { path: "^(src|packages)/", pathNot: "\\.test(-d)?\\.ts$" },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^(src|packages)/",
    // Type-only imports count: they are edges a refactor must respect too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
