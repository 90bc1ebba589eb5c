/**
 * `toolreg attachments` on the embedded state, as a user runs it: the refusals (a file over the cap before
 * it is read, a bad media type or identifier, an id that is not one of yours), and the repair the CLI makes
 * when it opens the state: bytes a crash left that nothing names are deleted, and an attachment whose bytes
 * are gone is dropped rather than listed.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ATTACHMENT_LIMITS } from "../../src/ports/attachment-store.js";
import { runToolreg } from "./run-cli.js";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-attachments-cli-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

const as = ["--tenant", "acme", "--principal", "ada"];
const run = (...args: string[]) => runToolreg([...as, "attachments", ...args], cwd);

describe("toolreg attachments", () => {
  it("refuses a file over the cap, a bad media type or identifier, and an id that is not yours", {
    timeout: 90_000,
  }, async () => {
    const huge = join(cwd, "huge.bin");
    writeFileSync(huge, "");
    truncateSync(huge, ATTACHMENT_LIMITS.bytes + 1);
    const tooLarge = await run("add", "huge.bin");
    expect(tooLarge.code).toBe(1);
    expect(tooLarge.stderr).toContain(`an attachment is at most ${ATTACHMENT_LIMITS.bytes} bytes`);

    writeFileSync(join(cwd, "a.txt"), "a");
    const badType = await run("add", "a.txt", "--media-type", "text");
    expect(badType.code).not.toBe(0);
    expect(badType.stderr).toContain('--media-type "text" is not a media type');
    // --run names a server's run: a `toolreg call` never is that run, and the help says so.
    const help = await run("add", "--help");
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "a run of `toolreg serve` named so (each `toolreg call` is a fresh run",
    );
    const badRun = await run("add", "a.txt", "--run", "two words");
    expect(badRun.stderr).toContain('--run "two words" is not an identifier');
    const badName = await run("add", "a.txt", "--name", "../a.txt");
    expect(badName.code).toBe(1);
    expect(badName.stderr).toContain("no folder");
    const missing = await run("add", "nowhere.txt");
    expect(missing.stderr).toContain("nowhere.txt: ENOENT");

    const added = await runToolreg(
      ["--tenant", "acme", "--principal", "bob", "attachments", "add", "a.txt"],
      cwd,
    );
    expect(added.code, added.stderr).toBe(0);
    const id = /att_[0-9a-f]{24}/.exec(added.stdout)?.[0] as string;
    const notYours = await run("remove", id);
    expect(notYours.code).not.toBe(0);
    expect(notYours.stderr).toContain(`no attachment ${id} of ada in tenant acme`);
    expect((await run("list", "--json")).stdout).toBe("[]\n");
  });

  it("repairs what a crash left when it opens the state", { timeout: 60_000 }, async () => {
    writeFileSync(join(cwd, "kept.txt"), "kept");
    writeFileSync(join(cwd, "lost.txt"), "lost");
    expect((await run("add", "kept.txt")).code).toBe(0);
    expect((await run("add", "lost.txt")).code).toBe(0);
    const folder = join(cwd, ".toolreg", "toolreg.db.attachments");
    const [tenant] = readdirSync(folder);
    const sha = (text: string) => createHash("sha256").update(text).digest("hex");
    const tenantFolder = join(folder, tenant as string);
    rmSync(join(tenantFolder, sha("lost")));
    writeFileSync(join(tenantFolder, sha("orphan")), "orphan");
    writeFileSync(join(tenantFolder, ".tmp-crashed"), "orph");
    mkdirSync(join(folder, "another-tenant"), { recursive: true });
    writeFileSync(join(folder, "another-tenant", sha("left")), "left");

    const listed = await run("list", "--json");
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as { name: string }[]).map((a) => a.name)).toEqual(["kept.txt"]);
    expect(readdirSync(tenantFolder)).toEqual([sha("kept")]);
    expect(existsSync(join(folder, "another-tenant", sha("left")))).toBe(false);
  });
});
