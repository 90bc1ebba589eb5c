/**
 * @module GitHub's release payloads cut to what a model acts on: the tag, the name, whether it is a draft
 * or a prerelease, when it was published, its assets, and its notes (capped, and the cap said).
 */
import { capText, login } from "../github-shapes.js";

// biome-ignore lint/suspicious/noExplicitAny: GitHub's payloads, read field by field.
type Payload = any;

/** One release in a list. */
export function releaseSummary(release: Payload) {
  return {
    id: release.id as number,
    tagName: release.tag_name as string,
    name: (release.name ?? null) as string | null,
    draft: release.draft as boolean,
    prerelease: release.prerelease as boolean,
    author: login(release.author),
    targetCommitish: release.target_commitish as string,
    createdAt: release.created_at as string,
    publishedAt: (release.published_at ?? null) as string | null,
    assetCount: ((release.assets ?? []) as unknown[]).length,
    url: release.html_url as string,
  };
}

/** One line of a list: `v1.0.0 "Name" [prerelease] published 2024-05-01T00:00:00Z by octocat (id 1)`. */
export function releaseLine(release: ReturnType<typeof releaseSummary>): string {
  const kinds = [release.draft ? "draft" : "", release.prerelease ? "prerelease" : ""].filter(Boolean);
  const when = release.publishedAt ? `published ${release.publishedAt}` : "unpublished";
  return `${release.tagName}${release.name ? ` "${release.name}"` : ""}${kinds.length ? ` [${kinds.join(", ")}]` : ""} ${when} by ${release.author ?? "ghost"} (id ${release.id})`;
}

/** A tool's answer carrying one whole release: its notes and asset names are untrusted. */
export function releaseOutput(release: Payload) {
  const body = capText(release.body);
  const { assetCount: _count, ...summary } = releaseSummary(release);
  const detail = {
    ...summary,
    assets: ((release.assets ?? []) as Payload[]).map((asset) => ({
      name: asset.name as string,
      size: asset.size as number,
      downloadCount: asset.download_count as number,
      contentType: asset.content_type as string,
      url: asset.browser_download_url as string,
    })),
    body: body.text,
    bodyTruncated: body.truncated,
  };
  return {
    content: JSON.stringify(detail),
    data: detail,
    truncated: body.truncated,
    provenance: { source: detail.url, trusted: false },
  };
}

/** A release's page, as the list of them: `…/releases/tag/v1` → `…/releases`. */
export const releasesPageOf = (url: string) => url.replace(/\/releases\/.*$/, "/releases");
