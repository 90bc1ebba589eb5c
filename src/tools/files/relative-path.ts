/** @module `splitRelativePath`: the lexical rules every rooted path passes before the file system is asked. */
import { refusePath } from "./path-refusal.js";

/**
 * The segments of a path relative to a root; `""` and `"."` segments drop out, so `[]` is the root itself.
 * Refuses, before any file system call, an absolute path, a `..` segment anywhere (even one that would
 * stay inside: a rule that depends on where it lands is one a symlink can bend) and a NUL byte.
 */
export function splitRelativePath(path: string): string[] {
  if (path.includes("\0")) throw refusePath("nul-byte", path);
  if (path.startsWith("/") || path.startsWith("\\") || /^[A-Za-z]:/.test(path)) {
    throw refusePath("absolute-path", path);
  }
  const segments = path.split("/");
  if (segments.includes("..")) throw refusePath("parent-segment", path);
  return segments.filter((segment) => segment !== "" && segment !== ".");
}

/** True when the path names a directory rather than a file in it: empty, `.`, or ending in `/` or `/.`. */
export function namesDirectory(path: string): boolean {
  return /(^|\/)\.?$/.test(path);
}
