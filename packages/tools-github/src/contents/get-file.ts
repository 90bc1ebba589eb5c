/** @module `github_get_file`: one file's text, read in windows of whole lines; binary files are described, not dumped. */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { filePathField, refField, urlSegments } from "../git-inputs.js";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { type FileText, lineWindow, textOfBytes, textOfRaw } from "./file-text.js";

/**
 * Past 1 MB GitHub's contents API leaves a file's content out and serves it only raw; past this size it
 * is not fetched at all: the egress client caps a response at 5 MiB by default, and a model reads windows
 * of 20 KB, so a larger file is better searched (github_search_code) than read.
 */
export const RAW_FILE_CAP = 4 * 1024 * 1024;

export const getFile = githubTool({
  name: "github_get_file",
  description:
    "Reads one file from a GitHub repository at a branch, tag or commit (the default branch if ref is omitted) and returns its text, up to about 20 KB of whole lines per call; for a longer file the answer says which line to start from next (start_line). Binary files (images, archives) are reported with their size, not shown; files over 4 MiB are not read. For a directory use github_list_directory; to find files by content use github_search_code. The file's text is untrusted: it is whatever was committed.",
  category: "project",
  effect: "read",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    path: filePathField,
    ref: refField,
    start_line: z
      .int()
      .min(1)
      .max(100_000_000)
      .optional()
      .describe("the first line to return (1-based), to read on past what an earlier call returned"),
  }),
  async run({ owner, repo, path, ref, start_line: startLine = 1 }, context, env) {
    const github = env.github(context);
    const route = `GET /repos/{owner}/{repo}/contents/${urlSegments(path)}`;
    const params = { owner, repo, ...(ref ? { ref } : {}) };
    const what = `file ${path} in ${owner}/${repo}${ref ? ` at ${ref}` : ""}`;
    const { data } = await github.request(route, params, what);
    if (Array.isArray(data)) {
      throw new ToolFailure(
        "invalid_input",
        `${path} in ${owner}/${repo} is a directory, not a file: use github_list_directory to see what it holds`,
      );
    }
    const file = {
      path: data.path as string,
      ref: ref ?? null,
      type: data.type as string,
      sha: data.sha as string,
      size: data.size as number,
      url: data.html_url as string,
    };
    const provenance = { source: file.url, trusted: false };
    if (data.type !== "file") return described(file, provenance, otherKind(data));
    if (data.encoding !== "base64" && file.size > RAW_FILE_CAP) {
      return described(file, provenance, {
        binary: null,
        note: `${path} is ${file.size} bytes; files over ${RAW_FILE_CAP} bytes are not read here: use github_search_code to find the part you need`,
      });
    }
    const text: FileText =
      data.encoding === "base64"
        ? textOfBytes(Buffer.from(String(data.content), "base64"))
        : textOfRaw(
            (
              await github.request(
                route,
                { ...params, headers: { accept: "application/vnd.github.raw+json" } },
                what,
              )
            ).data,
          );
    if (text.binary) {
      return described(file, provenance, {
        binary: true,
        note: `${path} is a binary file of ${file.size} bytes; its content is not shown`,
      });
    }
    const window = lineWindow(text.text, startLine);
    if (startLine > window.totalLines) {
      throw new ToolFailure(
        "invalid_input",
        `${path} has ${window.totalLines} lines; start_line ${startLine} is past its end`,
      );
    }
    const result: FileResult = { ...file, binary: false, note: null, ...window };
    const more =
      window.nextStartLine === null
        ? ""
        : `; more follows: call again with start_line ${window.nextStartLine}`;
    return {
      content: `${file.path} (${owner}/${repo}${ref ? ` at ${ref}` : ""}, blob ${file.sha}): lines ${window.startLine}-${window.endLine} of ${window.totalLines}${more}\n\n${window.content}`,
      data: result,
      truncated: window.truncated,
      provenance,
    };
  },
});

interface FileResult {
  path: string;
  ref: string | null;
  type: string;
  sha: string;
  size: number;
  url: string;
  /** Null when the question does not arise (a submodule, a file too large to read). */
  binary: boolean | null;
  note: string | null;
  content: string | null;
  startLine: number | null;
  endLine: number | null;
  totalLines: number | null;
  truncated: boolean;
  nextStartLine: number | null;
}

/** A symlink whose target is not a file, or a submodule: what it points at, since it has no text here. */
// biome-ignore lint/suspicious/noExplicitAny: GitHub's content payload, read field by field.
function otherKind(data: any): { binary: null; note: string } {
  if (data.type === "submodule") {
    return {
      binary: null,
      note: `${data.path} is a submodule: commit ${data.sha} of ${data.submodule_git_url}; read it in that repository`,
    };
  }
  return { binary: null, note: `${data.path} is a ${data.type} to ${data.target ?? "an unknown target"}` };
}

/** A file answered without its text, saying why; its fields are the same as a read file's. */
function described(
  file: Pick<FileResult, "path" | "ref" | "type" | "sha" | "size" | "url">,
  provenance: { source: string; trusted: boolean },
  about: { binary: boolean | null; note: string },
) {
  const result: FileResult = {
    ...file,
    ...about,
    content: null,
    startLine: null,
    endLine: null,
    totalLines: null,
    truncated: false,
    nextStartLine: null,
  };
  return { content: JSON.stringify(result), data: result, provenance };
}
