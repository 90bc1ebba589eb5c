/**
 * @module GitHub's commit payloads cut to what a model needs: who, when, what it says and what it
 * changed. A commit's message and patches are untrusted text; patches are capped, file by file and in all.
 */
import { capText } from "../github-shapes.js";

/** Characters of a commit title in a list (its message's first line). */
const TITLE_CAP = 200;
/** Characters of a whole commit message. */
const MESSAGE_CAP = 4_000;
/** Files of one commit described; GitHub itself pages past 300. */
export const FILES_SHOWN = 100;
/** Characters of one file's patch, and of all patches of one commit together. */
const PATCH_CAP = 3_000;
const PATCHES_CAP = 12_000;

// biome-ignore lint/suspicious/noExplicitAny: GitHub's person payloads, read field by field.
const person = (git: any, user: any) => ({
  name: (git?.name ?? null) as string | null,
  login: (user?.login ?? null) as string | null,
  date: (git?.date ?? null) as string | null,
});

/** A commit as a list shows it: its title (first line), author and date. */
// biome-ignore lint/suspicious/noExplicitAny: GitHub's commit payload, read field by field.
export function commitSummary(commit: any) {
  const message = String(commit.commit?.message ?? "");
  return {
    sha: commit.sha as string,
    title: capText(message.split("\n", 1)[0], TITLE_CAP).text,
    author: person(commit.commit?.author, commit.author),
    url: commit.html_url as string,
  };
}

/** A listed commit on one line: short sha, title, who and when. */
export function commitLine(commit: ReturnType<typeof commitSummary>): string {
  const who = commit.author.login ?? commit.author.name ?? "unknown";
  return `${commit.sha.slice(0, 7)} ${commit.title} (${who}${commit.author.date ? `, ${commit.author.date}` : ""})`;
}

/** A commit with its whole (capped) message, stats and changed files with their patches. */
// biome-ignore lint/suspicious/noExplicitAny: as above.
export function commitDetail(commit: any, moreFiles: boolean) {
  const message = capText(commit.commit?.message, MESSAGE_CAP);
  // biome-ignore lint/suspicious/noExplicitAny: GitHub's diff entry, read field by field.
  const all: any[] = commit.files ?? [];
  let budget = PATCHES_CAP;
  const files = all.slice(0, FILES_SHOWN).map((file) => {
    const room = Math.min(PATCH_CAP, budget);
    const patch = file.patch === undefined ? undefined : capText(file.patch, room);
    budget -= patch?.text.length ?? 0;
    return {
      filename: file.filename as string,
      status: file.status as string,
      ...(file.previous_filename ? { previousFilename: file.previous_filename as string } : {}),
      additions: file.additions as number,
      deletions: file.deletions as number,
      // GitHub sends no patch for a binary file or a diff too large to show.
      patch: patch?.text ?? null,
      patchTruncated: patch?.truncated ?? false,
    };
  });
  return {
    sha: commit.sha as string,
    message: message.text,
    messageTruncated: message.truncated,
    author: person(commit.commit?.author, commit.author),
    committer: person(commit.commit?.committer, commit.committer),
    parents: ((commit.parents ?? []) as { sha: string }[]).map((parent) => parent.sha),
    stats: commit.stats ?? null,
    files,
    filesTruncated: moreFiles || all.length > FILES_SHOWN,
    url: commit.html_url as string,
  };
}
