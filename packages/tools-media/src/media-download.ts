/**
 * @module A generated file fetched from where its provider delivers it. The URL comes from the provider's
 * answer, so it is checked before anything is sent: only the provider's delivery hosts, no credential (the
 * download goes through its own egress client, which holds none), at most the configured bytes, and the
 * bytes must be an image or a video by their signature, whatever the Content-Type says.
 */
import { callOptions, type EgressClient, type ToolContext, ToolFailure } from "toolreg/toolkit";
import { type MediaKind, type SniffedMedia, sniffMedia } from "./media-sniff.js";

/** Where a provider's files may be fetched from, and the client that fetches them. */
export interface Delivery {
  egress: EgressClient;
  hosts: readonly string[];
}

export interface DownloadRequest {
  url: string;
  kind: MediaKind;
  maxBytes: number;
  /** Names the provider and its generation in messages: `Replicate prediction abc`. */
  what: string;
}

export interface MediaBytes {
  bytes: Uint8Array;
  sniffed: SniffedMedia;
}

/** Whether `host` is one of `patterns` (exact, or `*.suffix` for any name below the suffix). */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase();
  return patterns.some((pattern) => {
    const lower = pattern.toLowerCase();
    return lower.startsWith("*.") ? name.endsWith(lower.slice(1)) : name === lower;
  });
}

export async function downloadMedia(
  delivery: Delivery,
  context: ToolContext,
  request: DownloadRequest,
): Promise<MediaBytes> {
  let url: URL;
  try {
    url = new URL(request.url);
  } catch {
    throw new ToolFailure("upstream_error", `${request.what} gave a file address that is not a URL`, {
      retryable: false,
    });
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "") {
    throw new ToolFailure(
      "egress_refused",
      `${request.what} gave a file address with scheme ${url.protocol} or credentials in it, which is not downloaded`,
      { retryable: false },
    );
  }
  if (!hostAllowed(url.hostname, delivery.hosts)) {
    throw new ToolFailure(
      "egress_refused",
      `${request.what} delivered its file from ${url.hostname}, which is not one of its delivery hosts (${delivery.hosts.join(", ")}); the file was not downloaded. The deployment may add the host to deliveryHosts if the provider moved it`,
      { retryable: false, details: { host: url.hostname } },
    );
  }
  const response = await delivery.egress.request(url.href, {
    method: "GET",
    headers: { accept: request.kind === "image" ? "image/*" : "video/*" },
    maxResponseBytes: request.maxBytes,
    ...callOptions(context),
  });
  if (response.status >= 400) {
    throw new ToolFailure(
      "upstream_error",
      `${request.what}: its file at ${url.hostname} answered ${response.status}${response.status === 403 || response.status === 404 ? " (the link may have expired)" : ""}`,
      { retryable: response.status >= 500, details: { status: response.status, host: url.hostname } },
    );
  }
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${request.what}: its file is larger than ${response.bytesRead} bytes, the most this deployment keeps (max${request.kind === "image" ? "Image" : "Video"}Bytes, and the egress policy's maxResponseBytes); it was not kept`,
      { retryable: false, details: { limitBytes: response.bytesRead } },
    );
  }
  const bytes = new Uint8Array(response.body);
  const sniffed = sniffMedia(bytes);
  if (sniffed === undefined || sniffed.kind !== request.kind) {
    throw new ToolFailure(
      "upstream_error",
      `${request.what}: the file at ${url.hostname} is not ${request.kind === "image" ? "an image" : "a video"} (its bytes are ${sniffed ? sniffed.mediaType : "no known image or video format"}, whatever its content type says); it was not kept`,
      { retryable: false, details: { contentType: response.headers["content-type"] ?? "" } },
    );
  }
  return { bytes, sniffed };
}

/** Bytes a provider put in its answer (base64), held to the same checks as a download. */
export function decodeInline(base64: string, request: Omit<DownloadRequest, "url">): MediaBytes {
  if (base64.length > Math.ceil((request.maxBytes * 4) / 3) + 4) {
    throw new ToolFailure(
      "upstream_error",
      `${request.what}: its ${request.kind} is larger than ${request.maxBytes} bytes, the most this deployment keeps; it was not kept`,
      { retryable: false },
    );
  }
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64)) {
    throw new ToolFailure("upstream_error", `${request.what}: its ${request.kind} is not base64`, {
      retryable: false,
    });
  }
  const bytes = new Uint8Array(Buffer.from(base64, "base64"));
  const sniffed = sniffMedia(bytes);
  if (sniffed === undefined || sniffed.kind !== request.kind) {
    throw new ToolFailure(
      "upstream_error",
      `${request.what}: what it sent is not ${request.kind === "image" ? "an image" : "a video"}; it was not kept`,
      { retryable: false },
    );
  }
  return { bytes, sniffed };
}
