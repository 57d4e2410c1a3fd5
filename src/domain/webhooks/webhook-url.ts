import { invalid } from "../../lib/errors.ts";
import {
  FetchFailedError,
  type SafeFetcher,
  UnsafeUrlError,
  type UnsafeUrlReason,
} from "../../lib/safe-fetch.ts";

const PATH = "body.webhookUrl";

const refuse = (message: string, detail: string) =>
  invalid(message, [{ path: PATH, message: detail }]);

const UNSAFE_DETAILS: Record<UnsafeUrlReason, string> = {
  invalid_url: "is not a valid URL",
  scheme: "must use http or https",
  credentials: "must not contain a user name or password",
  // One answer for both: which kind of address a name resolved to is not told (docs/webhooks.md).
  blocked_host: "is not a public address",
  blocked_address: "is not a public address",
  too_many_redirects: "redirects too often",
};

/**
 * Checks a webhookUrl the spec's way, each failure a 400 with its own message: a URL, http or
 * https, allowed by the address policy (in production no loopback, private, link-local or
 * metadata address, also after DNS resolution), and reachable (a HEAD probe gets any answer).
 */
export async function validateWebhookUrl(
  fetcher: Pick<SafeFetcher, "check" | "probe">,
  rawUrl: string | undefined,
  probeTimeoutMs: number,
): Promise<string> {
  if (rawUrl === undefined || rawUrl.trim() === "") {
    throw refuse(
      "webhookUrl is required: this agent uses conversational mode, which answers on the api channel by webhook",
      "is required when the agent has conversational mode enabled and the channel is api",
    );
  }
  const url = rawUrl.trim();
  if (!URL.canParse(url)) {
    throw refuse(`webhookUrl "${shorten(url)}" is not a valid URL`, UNSAFE_DETAILS.invalid_url);
  }
  const protocol = new URL(url).protocol;
  if (protocol !== "http:" && protocol !== "https:") {
    throw refuse(
      `webhookUrl must use http or https, not ${protocol.replace(/:$/, "")}`,
      UNSAFE_DETAILS.scheme,
    );
  }
  try {
    await fetcher.check(url);
    await fetcher.probe(url, probeTimeoutMs);
  } catch (error) {
    if (error instanceof UnsafeUrlError) {
      throw refuse(`webhookUrl is not allowed: ${error.message}`, UNSAFE_DETAILS[error.reason]);
    }
    if (error instanceof FetchFailedError) {
      throw refuse(`webhookUrl is not reachable: ${error.message}`, "is not reachable");
    }
    throw error;
  }
  return url;
}

function shorten(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
