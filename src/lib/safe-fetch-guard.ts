import { lookup as dnsLookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import type { buildConnector } from "undici";
import type { IpPolicy } from "./ip-policy.ts";
import type { Logger } from "./logger.ts";
import { FetchFailedError, UnsafeUrlError } from "./safe-fetch-errors.ts";

const REFUSAL_LOG = "outbound request refused: the address is not public";

/** Resolves a host name to every address it answers with. */
export type Resolver = (hostname: string) => Promise<string[]>;

export const systemResolver: Resolver = async (hostname) => {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
};

export interface UrlGuard {
  /** Parses a URL and refuses bad schemes, credentials, blocked names and blocked IP literals. */
  parse(raw: string): URL;
  /** Resolves a host name and refuses it when ANY answer is blocked; `subject` names it in errors. */
  resolveAllowed(hostname: string, subject: string): Promise<string[]>;
  /**
   * An undici connector, built with undici's `buildConnector`, that applies the address policy
   * to the address it actually dials.
   */
  connector(build: typeof buildConnector): buildConnector.connector;
}

export function createUrlGuard(deps: {
  policy: IpPolicy;
  resolve: Resolver;
  connectTimeoutMs: number;
  /** Canonical host names (see canonicalHostName) exempt from the policy, whatever they resolve to. */
  allowedHosts?: ReadonlySet<string>;
  /** Where a refusal's address and kind are logged (debug), since its message omits them. */
  logger?: Pick<Logger, "debug">;
}): UrlGuard {
  const { policy, resolve } = deps;
  const allowedHosts = deps.allowedHosts ?? new Set<string>();
  // Judged on the host of the URL being dialled, so each redirect hop is judged on its own host.
  const listed = (hostname: string) => allowedHosts.has(unbracket(hostname).toLowerCase());

  /**
   * The refusal's message names what was asked for, never the address a name resolved to nor
   * its kind: a tenant could otherwise map the internal network's names through the errors.
   */
  const refuse = (
    reason: "blocked_host" | "blocked_address",
    target: string,
    found: { address?: string; kind: string },
  ) => {
    deps.logger?.debug({ target, ...found }, REFUSAL_LOG);
    return new UnsafeUrlError(reason, `${target} refused: the address is not public`);
  };

  const refuseAddress = (subject: string, address: string) => {
    const kind = policy.addressBlockedReason(address);
    if (kind !== null) throw refuse("blocked_address", subject, { address, kind });
  };

  const resolveAllowed = async (hostname: string, subject: string): Promise<string[]> => {
    const host = unbracket(hostname);
    if (isIP(host)) {
      if (!listed(host)) refuseAddress(subject, host);
      return [host];
    }
    let addresses: string[];
    try {
      addresses = await resolve(host);
    } catch (error) {
      throw new FetchFailedError("dns", `Could not resolve ${host}`, { cause: error });
    }
    if (addresses.length === 0) throw new FetchFailedError("dns", `${host} has no address`);
    if (listed(host)) return addresses;
    // Refusing when any answer is blocked stops a name that mixes public and private answers.
    for (const address of addresses) refuseAddress(subject, address);
    return addresses;
  };

  // Node calls this from net.connect for every host name, so the addresses checked here are the
  // ones dialled: a second, rebinding DNS answer between a check and the connect cannot slip in.
  const guardedLookup: LookupFunction = (hostname, options, callback) => {
    resolveAllowed(hostname, hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses
          .map((address) => ({ address, family: isIP(address) }))
          .filter((entry) => wanted === 0 || entry.family === wanted);
        const first = usable[0];
        if (!first) {
          callback(new FetchFailedError("dns", `${hostname} has no IPv${wanted} address`), "");
        } else if (options.all) {
          callback(null, usable);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: Error) => callback(error, ""),
    );
  };

  const connector = (build: typeof buildConnector): buildConnector.connector => {
    const dial = build({ lookup: guardedLookup, timeout: deps.connectTimeoutMs });
    // net.connect skips the lookup for IP literals, so those are checked here.
    return (options, callback) => {
      const host = unbracket(options.hostname);
      if (isIP(host) && !listed(host)) {
        try {
          refuseAddress(`${options.protocol}//${options.host ?? host}`, host);
        } catch (error) {
          callback(error as Error, null);
          return;
        }
      }
      dial(options, callback);
    };
  };

  const parse = (raw: string): URL => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new UnsafeUrlError("invalid_url", `"${truncate(raw)}" is not a valid URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new UnsafeUrlError(
        "scheme",
        `${url.protocol} URLs are not allowed; only http: and https: URLs can be fetched`,
      );
    }
    if (url.username !== "" || url.password !== "") {
      throw new UnsafeUrlError(
        "credentials",
        `${url.origin} includes a user name or password in the URL, which is not allowed`,
      );
    }
    if (listed(url.hostname)) return url;
    const hostKind = policy.hostBlockedReason(url.hostname);
    if (hostKind !== null) throw refuse("blocked_host", url.origin, { kind: `${hostKind} host` });
    const literal = unbracket(url.hostname);
    if (isIP(literal)) refuseAddress(url.origin, literal);
    return url;
  };

  return { parse, resolveAllowed, connector };
}

/**
 * A host name or IP address as URLs spell it (lower case, IPv4 dotted, IPv6 compressed, without
 * brackets); null when `entry` is something else (a URL, a port, a path, a user name).
 */
export function canonicalHostName(entry: string): string | null {
  const trimmed = entry.trim();
  const bracketed = isIP(trimmed) === 6 ? `[${trimmed}]` : trimmed;
  if (!/^(\[[0-9a-f:.]+\]|[^\s/?#@:%[\]\\]+)$/i.test(bracketed)) return null;
  if (!URL.canParse(`http://${bracketed}/`)) return null;
  return unbracket(new URL(`http://${bracketed}/`).hostname);
}

function unbracket(hostname: string): string {
  return hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname;
}

function truncate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
