export type UnsafeUrlReason =
  | "invalid_url"
  | "scheme"
  | "credentials"
  | "blocked_host"
  | "blocked_address"
  | "too_many_redirects";

/** The URL (or a redirect it led to) is refused by policy; retrying will not help. */
export class UnsafeUrlError extends Error {
  override readonly name = "UnsafeUrlError";
  constructor(
    readonly reason: UnsafeUrlReason,
    message: string,
  ) {
    super(message);
  }
}

export type FetchFailureReason =
  | "dns"
  | "unreachable"
  | "timeout"
  | "tls"
  | "too_large"
  | "http"
  | "aborted";

/** The URL was allowed but the request did not produce a usable response. */
export class FetchFailedError extends Error {
  override readonly name = "FetchFailedError";
  constructor(
    readonly reason: FetchFailureReason,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

const DNS_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NODATA", "ENODATA"]);
const TIMEOUT_CODES = new Set([
  "ETIMEDOUT",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);
const UNREACHABLE_CODES = new Set(["EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN", "EADDRNOTAVAIL"]);
const TLS_CODES = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_HAS_EXPIRED",
  "CERT_NOT_YET_VALID",
  "ERR_SSL_WRONG_VERSION_NUMBER",
]);

/**
 * Turns a low-level network error into a FetchFailedError whose message names the target but
 * not the library internals; policy errors and errors already translated pass through.
 */
export function toFetchFailure(error: unknown, target: string): Error {
  if (error instanceof UnsafeUrlError || error instanceof FetchFailedError) return error;
  const code = errorCode(error);
  if (code === "UND_ERR_INVALID_ARG") return error as Error; // a caller bug, not a network failure
  const fail = (reason: FetchFailureReason, message: string) =>
    new FetchFailedError(reason, message, { cause: error });
  if (DNS_CODES.has(code)) return fail("dns", `Could not resolve the host of ${target}`);
  if (code === "ECONNREFUSED") return fail("unreachable", `Connection to ${target} was refused`);
  if (UNREACHABLE_CODES.has(code)) return fail("unreachable", `${target} is not reachable`);
  if (TIMEOUT_CODES.has(code)) return fail("timeout", `${target} did not respond in time`);
  if (TLS_CODES.has(code) || code.startsWith("ERR_TLS") || code.startsWith("ERR_SSL")) {
    return fail("tls", `The TLS connection to ${target} failed (${code})`);
  }
  if (code === "ECONNRESET" || code === "EPIPE" || code === "UND_ERR_SOCKET") {
    return fail("http", `${target} closed the connection before a complete response`);
  }
  if (code.startsWith("HPE_")) return fail("http", `${target} sent an invalid HTTP response`);
  return fail("http", `The request to ${target} failed`);
}

function errorCode(error: unknown): string {
  if (typeof error !== "object" || error === null) return "";
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === undefined || cause === error ? "" : errorCode(cause);
}
