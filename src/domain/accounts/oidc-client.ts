import * as client from "openid-client";
import type { OidcSettings } from "../../config/accounts-config.ts";
import { AppError } from "../../lib/errors.ts";

/** Who the provider says signed in. */
export type OidcClaims = {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
};

/** Checks that bind a provider's answer to the sign-in that asked for it. */
type OidcChecks = { state: string; nonce: string; codeVerifier: string };

/** The provider did not confirm the sign-in (an error answer, a bad code or ID token). */
export class OidcProviderRefusal extends Error {
  constructor(readonly providerError: string) {
    super(`The identity provider did not confirm this sign-in (${providerError})`);
    this.name = "OidcProviderRefusal";
  }
}

export type OidcClientSettings = {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  redirectUri: string;
};

const SCOPE = "openid email profile";
const PROVIDER_TIMEOUT_SECONDS = 10;

const text = (value: unknown) => (typeof value === "string" && value !== "" ? value : null);

/**
 * The OpenID provider as openid-client sees it: authorization code flow with PKCE (S256),
 * `state` and `nonce`. The issuer's metadata is fetched at the first sign-in and kept.
 */
function createOidcClient(settings: OidcClientSettings) {
  const issuer = new URL(settings.issuer);
  let configuration: Promise<client.Configuration> | null = null;

  function discover(): Promise<client.Configuration> {
    configuration ??= client
      .discovery(
        issuer,
        settings.clientId,
        undefined,
        settings.clientSecret ? client.ClientSecretBasic(settings.clientSecret) : client.None(),
        {
          timeout: PROVIDER_TIMEOUT_SECONDS,
          // The configuration lets plain http through only for a provider on this machine.
          ...(issuer.protocol === "http:" ? { execute: [client.allowInsecureRequests] } : {}),
        },
      )
      .catch((error: unknown) => {
        // The next sign-in tries again: the provider may be back.
        configuration = null;
        throw new AppError(
          "BAD_GATEWAY",
          `The identity provider ${settings.issuer} could not be reached or did not describe itself (${errorCode(error)})`,
        );
      });
    return configuration;
  }

  /** Fills what the ID token left out (providers that keep e-mail for userinfo). */
  async function userInfoClaims(
    config: client.Configuration,
    accessToken: string,
    subject: string,
  ): Promise<Record<string, unknown>> {
    if (!config.serverMetadata().userinfo_endpoint) return {};
    return client.fetchUserInfo(config, accessToken, subject);
  }

  return {
    /** The provider's authorization URL for a new sign-in. */
    async authorizationUrl(checks: OidcChecks): Promise<string> {
      const config = await discover();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: settings.redirectUri,
        scope: SCOPE,
        state: checks.state,
        nonce: checks.nonce,
        code_challenge: await client.calculatePKCECodeChallenge(checks.codeVerifier),
        code_challenge_method: "S256",
      });
      return url.href;
    },

    /** Exchanges the callback's code and returns the verified claims of the ID token. */
    async exchange(callbackUrl: URL, checks: OidcChecks): Promise<OidcClaims> {
      const config = await discover();
      try {
        const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce,
          idTokenExpected: true,
        });
        const idToken = tokens.claims()!;
        const claims: Record<string, unknown> =
          idToken.email === undefined
            ? { ...(await userInfoClaims(config, tokens.access_token, idToken.sub)), ...idToken }
            : idToken;
        return {
          subject: idToken.sub,
          email: text(claims.email),
          emailVerified: claims.email_verified === true || claims.email_verified === "true",
          name: text(claims.name),
        };
      } catch (error) {
        throw refusalOf(error);
      }
    },
  };
}

export type OidcClient = ReturnType<typeof createOidcClient>;

function errorCode(error: unknown): string {
  if (error instanceof client.ResponseBodyError) return error.error;
  if (error instanceof client.AuthorizationResponseError) return error.error;
  if (error instanceof client.ClientError) return error.code ?? error.message;
  return error instanceof Error ? error.message : String(error);
}

/** A provider that cannot be reached is a 502; any other failure refuses the sign-in. */
function refusalOf(error: unknown): Error {
  const unreachable =
    (error instanceof TypeError && error.message === "fetch failed") ||
    (error instanceof client.ClientError && error.code === "OAUTH_TIMEOUT");
  if (unreachable) {
    return new AppError("BAD_GATEWAY", "The identity provider could not be reached; try again");
  }
  const known =
    error instanceof client.ResponseBodyError ||
    error instanceof client.AuthorizationResponseError ||
    error instanceof client.ClientError;
  return known ? new OidcProviderRefusal(errorCode(error)) : (error as Error);
}

/** The provider of OIDC_ISSUER, or null when single sign-on is off. */
export function oidcProviderOf(settings: { oidc: OidcSettings | null; publicUrl: string }) {
  if (!settings.oidc) return null;
  const redirectUri = `${settings.publicUrl}/api/auth/oidc/callback`;
  return {
    client: createOidcClient({ ...settings.oidc, redirectUri }),
    settings: {
      issuer: settings.oidc.issuer,
      allowedDomains: settings.oidc.allowedDomains,
      redirectUri,
    },
  };
}
