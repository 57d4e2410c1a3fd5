import { z } from "zod";
import { intVar, optionalString, optionalUrl } from "./env-types.ts";

const smtpUrl = () =>
  optionalString().pipe(
    z
      .string()
      .refine(
        (value) => /^smtps?:\/\//i.test(value) && URL.canParse(value),
        "must be smtp://user:pass@host:port or smtps://…",
      )
      .optional(),
  );

export const accountsEnvSchema = z.object({
  PUBLIC_URL: optionalUrl().describe(
    "Public base URL of the API listener (links in e-mails, OIDC redirect, Secure cookie on https); default http://HOST:PORT",
  ),
  SMTP_URL: smtpUrl().describe(
    "Outgoing mail (invitations, password resets, mail channels): smtp://user:pass@host:port or smtps://…",
  ),
  MAIL_FROM: optionalString().describe(
    "Sender of the service's e-mails; default agentdesk@<PUBLIC_URL host>",
  ),
  SIGNUP: z
    .enum(["invite", "open"])
    .default("invite")
    .describe(
      "invite: people join by invitation; open: anyone may sign up and make an organization",
    ),
  SESSION_MAX_AGE_HOURS: intVar(336, 1, 8_760).describe(
    "How long a login session lasts without signing in again",
  ),
  OIDC_ISSUER: optionalUrl().describe("Enables single sign-on with this OpenID Connect issuer"),
  OIDC_CLIENT_ID: optionalString().describe("The OpenID client id registered for agentdesk"),
  OIDC_CLIENT_SECRET: optionalString().describe("The OpenID client's secret"),
  OIDC_ALLOWED_DOMAINS: optionalString().describe(
    "Comma-separated e-mail domains whose new SSO users join the Default organization as member",
  ),
});

export type OidcSettings = {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  allowedDomains: string[];
};

/** Tokens and keys cross the network in the clear over http: only to this machine. */
const secureOrLocal = (url: URL) =>
  url.protocol === "https:" ||
  (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname));

export function accountsConfig(
  env: z.output<typeof accountsEnvSchema>,
  listener: { host: string; port: number },
) {
  const publicUrl = new URL(env.PUBLIC_URL ?? `http://${listener.host}:${listener.port}`);
  if (env.OIDC_ISSUER && !env.OIDC_CLIENT_ID) {
    throw new Error("OIDC_CLIENT_ID: required when OIDC_ISSUER is set");
  }
  if (env.OIDC_ISSUER && !secureOrLocal(new URL(env.OIDC_ISSUER))) {
    throw new Error("OIDC_ISSUER: must be https (http only for 127.0.0.1 or localhost)");
  }
  const oidc: OidcSettings | null = env.OIDC_ISSUER
    ? {
        issuer: env.OIDC_ISSUER,
        clientId: env.OIDC_CLIENT_ID!,
        clientSecret: env.OIDC_CLIENT_SECRET,
        allowedDomains: (env.OIDC_ALLOWED_DOMAINS ?? "")
          .split(",")
          .map((domain) => domain.trim().toLowerCase().replace(/^@/, ""))
          .filter(Boolean),
      }
    : null;
  return {
    /** The origin and path prefix links are made from, without a trailing slash. */
    publicUrl: publicUrl.href.replace(/\/$/, ""),
    publicOrigin: publicUrl.origin,
    secureCookies: publicUrl.protocol === "https:",
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? `agentdesk@${publicUrl.hostname}`,
    signup: env.SIGNUP,
    sessionMaxAgeMs: env.SESSION_MAX_AGE_HOURS * 3_600_000,
    oidc,
  };
}
