/**
 * @module The fake's release payloads: GitHub's `release` example with the fields a release's state decides
 * laid over it.
 */
import { example } from "./payloads.js";
import { userPayload } from "./pulls-payloads.js";

/** A release as the fake keeps it. */
export interface FakeRelease {
  owner: string;
  repo: string;
  id: number;
  tag: string;
  target: string;
  name: string | null;
  body: string | null;
  draft: boolean;
  prerelease: boolean;
  author: string;
  createdAt: string;
  publishedAt: string | null;
  /** Whether it carries GitHub's example asset (a new release has none until one is uploaded). */
  hasAsset: boolean;
}

type Json = Record<string, unknown>;

/** GET /repos/{owner}/{repo}/releases/{release_id} and every route that answers one release. */
export function releasePayload(release: FakeRelease): Json {
  const shape = example<Json>("release");
  const api = `https://api.github.com/repos/${release.owner}/${release.repo}`;
  // A draft's tag does not exist yet: GitHub links it under an `untagged-` name.
  const page = release.draft ? `untagged-${release.id.toString(16).padStart(20, "0")}` : release.tag;
  return {
    ...shape,
    url: `${api}/releases/${release.id}`,
    html_url: `https://github.com/${release.owner}/${release.repo}/releases/tag/${page}`,
    assets_url: `${api}/releases/${release.id}/assets`,
    upload_url: `https://uploads.github.com/repos/${release.owner}/${release.repo}/releases/${release.id}/assets{?name,label}`,
    tarball_url: `${api}/tarball/${release.tag}`,
    zipball_url: `${api}/zipball/${release.tag}`,
    id: release.id,
    tag_name: release.tag,
    target_commitish: release.target,
    name: release.name,
    body: release.body,
    draft: release.draft,
    prerelease: release.prerelease,
    created_at: release.createdAt,
    published_at: release.publishedAt,
    author: userPayload(release.author),
    assets: release.hasAsset ? shape.assets : [],
  };
}
