/** @module `github_write_file`: creates or replaces one text file in one commit, finding the file's sha itself. */
import { z } from "zod";
import { commitMessageField, filePathField, refNameField, urlSegments } from "../git-inputs.js";
import { githubTool } from "../github-env.js";
import { repoInput } from "../github-inputs.js";
import { currentFileSha, describeFile, staleWrite } from "./current-file.js";

/**
 * Text a write may carry: base64 makes it 4/3 larger, and the request must stay under the egress
 * client's default 1 MiB request cap with its message and JSON around it.
 */
export const MAX_WRITE_BYTES = 700 * 1024;

export const writeFile = githubTool({
  name: "github_write_file",
  description:
    "Writes one text file to a GitHub repository as one commit: creates it if it does not exist, replaces its whole content if it does (it looks the file's current version up itself; no sha is needed). Give the complete new content, a commit message, and optionally the branch (the default branch if omitted; create one first with github_create_branch to propose changes). If someone else changes the file between the lookup and the write, nothing is written and the tool says to retry. Writing under .github/workflows/ also needs the credential's workflow scope. To remove a file use github_delete_file.",
  category: "project",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["repo"],
  input: z.object({
    ...repoInput,
    path: filePathField,
    content: z
      .string()
      .refine(
        (text) => Buffer.byteLength(text) <= MAX_WRITE_BYTES,
        `at most ${MAX_WRITE_BYTES} bytes of UTF-8 in one write`,
      )
      .describe("the file's complete new text (UTF-8); it replaces the whole file"),
    message: commitMessageField,
    branch: refNameField("the branch to commit to; the repository's default branch when omitted").optional(),
  }),
  async run({ owner, repo, path, content, message, branch }, context, env) {
    const github = env.github(context);
    const file = { owner, repo, path, branch };
    const sha = await currentFileSha(github, file);
    const { status, data } = await github
      .request(
        `PUT /repos/{owner}/{repo}/contents/${urlSegments(path)}`,
        {
          owner,
          repo,
          message,
          content: Buffer.from(content).toString("base64"),
          ...(sha ? { sha } : {}),
          ...(branch ? { branch } : {}),
        },
        describeFile(file),
      )
      .catch((error: unknown) => {
        throw staleWrite(error, file, "github_write_file");
      });
    const result = {
      path,
      created: status === 201,
      branch: branch ?? null,
      fileSha: data.content?.sha as string,
      commit: { sha: data.commit.sha as string, url: data.commit.html_url as string },
    };
    return {
      content: `${result.created ? "Created" : "Updated"} ${describeFile(file)} in commit ${result.commit.sha}`,
      data: result,
    };
  },
});
