import type { ImapFlow } from "imapflow";
import { invalid } from "../../lib/errors.ts";
import { UnsafeUrlError } from "../../lib/safe-fetch.ts";
import { type ChannelSettings, type PlatformContext, PlatformError } from "./channel-adapter.ts";

/** How long connecting, the greeting and the login may take. */
const IMAP_CONNECT_TIMEOUT_MS = 15_000;

/** An IMAP URL as the mail channel's config holds it. */
export type ImapSource = {
  secure: boolean;
  host: string;
  port: number;
  user: string;
  password: string;
  mailbox: string;
};

/** imaps://user:password@host[:port] (TLS), or imap:// (STARTTLS when the server offers it). */
export function parseImapUrl(value: string, mailbox?: string): ImapSource | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "imaps:" && url.protocol !== "imap:") return null;
  if (url.hostname === "" || url.username === "" || url.password === "") return null;
  const secure = url.protocol === "imaps:";
  return {
    secure,
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port === "" ? (secure ? 993 : 143) : Number(url.port),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    mailbox: mailbox ?? "INBOX",
  };
}

/** The channel's IMAP source; its settings were validated when stored. */
export function imapSourceOf(settings: ChannelSettings): ImapSource | null {
  return settings.imapUrl ? parseImapUrl(settings.imapUrl, settings.imapMailbox) : null;
}

/**
 * An IMAP client of the source, not yet connected. The host passes the SSRF guard first, and the
 * client dials the address the guard approved (the name only names the TLS certificate), so a
 * second DNS answer cannot point it elsewhere.
 */
export async function imapClientOf(
  context: Pick<PlatformContext, "resolveHost">,
  source: ImapSource,
): Promise<ImapFlow> {
  let addresses: string[];
  try {
    addresses = await context.resolveHost(source.host);
  } catch (error) {
    if (error instanceof UnsafeUrlError) {
      const reason = `the IMAP host ${source.host} is refused: the address is not public`;
      throw invalid(`Invalid mail channel config: ${reason}`, [
        { path: "body.config.imap.url", message: reason },
      ]);
    }
    throw new PlatformError(`IMAP: ${source.host} could not be resolved`, { retryable: true });
  }
  // Imported when a mailbox is first read, not at start (0.3 s and 8 MB without mail channels).
  const { ImapFlow: Client } = await import("imapflow");
  return new Client({
    host: addresses[0]!,
    port: source.port,
    secure: source.secure,
    servername: source.host,
    auth: { user: source.user, pass: source.password },
    logger: false,
    connectionTimeout: IMAP_CONNECT_TIMEOUT_MS,
    greetingTimeout: IMAP_CONNECT_TIMEOUT_MS,
    // Servers without IDLE are asked with NOOP, which reports new mail as IDLE would.
    missingIdleCommand: "NOOP",
  });
}

/** Why connecting failed, as the channel's error: a refused login is the config's to fix. */
export function imapFailureOf(error: unknown): PlatformError {
  const { authenticationFailed, code } = error as {
    authenticationFailed?: boolean;
    code?: string;
  };
  if (authenticationFailed) {
    return new PlatformError("IMAP: the server refused the login", {
      retryable: false,
      credentialsRefused: true,
    });
  }
  return new PlatformError(`IMAP: the server could not be reached (${code ?? "no connection"})`, {
    retryable: true,
  });
}

/** Logs in once and out: the check made when a channel is created or its IMAP URL changed. */
export async function checkImapLogin(
  context: Pick<PlatformContext, "resolveHost">,
  source: ImapSource,
): Promise<void> {
  const client = await imapClientOf(context, source);
  client.on("error", () => {});
  try {
    await client.connect();
    await client.mailboxOpen(source.mailbox, { readOnly: true }).catch(() => {
      throw new PlatformError(`IMAP: the mailbox ${source.mailbox} cannot be opened`, {
        retryable: false,
      });
    });
  } catch (error) {
    if (error instanceof PlatformError) throw error;
    throw imapFailureOf(error);
  } finally {
    await client.logout().catch(() => client.close());
  }
}
