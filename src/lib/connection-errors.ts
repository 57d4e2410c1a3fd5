/** Words for the network errors a connection at boot can end with. */
const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ECONNRESET: "connection reset",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed",
  ETIMEDOUT: "timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EPIPE: "connection closed",
};

// PostgreSQL's own refusals: their messages name the user or database, never a password.
const SERVER_REFUSALS = new Set(["28P01", "28000", "3D000", "53300", "57P03"]);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string") return code;
  // Node tries every address of a host name and reports them together (AggregateError).
  const inner = (error as { errors?: unknown[] } | null)?.errors;
  return Array.isArray(inner) ? inner.map(codeOf).find((found) => found !== undefined) : undefined;
}

/**
 * "cannot connect to host:port (reason)" for a connection that failed, naming where from the URL
 * but never its user info, and saying why in words rather than with an errno.
 */
export function describeConnectionFailure(
  error: unknown,
  url: string,
  defaultPort: number,
): string {
  const parsed = URL.canParse(url) ? new URL(url) : null;
  const host = parsed?.hostname || parsed?.searchParams.get("host") || "localhost";
  const where = `${host}:${parsed?.port || defaultPort}`;
  const code = codeOf(error);
  const message = error instanceof Error ? error.message : String(error);
  let reason: string;
  if (code !== undefined && code in NETWORK_REASONS) reason = NETWORK_REASONS[code]!;
  else if (code !== undefined && SERVER_REFUSALS.has(code)) reason = message;
  else if (/timeout/i.test(message)) reason = "timed out";
  else reason = redact(message, parsed);
  return `cannot connect to ${where} (${reason})`;
}

function redact(message: string, url: URL | null): string {
  if (!url?.password) return message;
  return message
    .split(url.password)
    .join("***")
    .split(decodeURIComponent(url.password))
    .join("***");
}
