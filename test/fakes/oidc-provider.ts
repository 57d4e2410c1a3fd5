import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Provider, { type Adapter } from "oidc-provider";

/** A person the provider knows: they sign in with their e-mail and password. */
export type OidcTestUser = {
  subject: string;
  email: string;
  emailVerified: boolean;
  name: string;
  password: string;
};

export type OidcTestProvider = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Adds a person the provider will sign in. */
  addUser(user: OidcTestUser): void;
  close(): Promise<void>;
};

/**
 * A real OpenID provider (the `oidc-provider` package) on 127.0.0.1, with one confidential
 * client whose redirect URI is the service's callback. Its login and consent pages are plain
 * HTML forms (POST /interaction/{uid}/login with `login` and `password`, then
 * POST /interaction/{uid}/confirm), so a test drives a sign-in with HTTP requests alone. It
 * requires PKCE. As the specification's default, e-mail claims come from userinfo, not the
 * ID token.
 */
export async function startOidcProvider(options: {
  redirectUri: string;
}): Promise<OidcTestProvider> {
  const users = new Map<string, OidcTestUser>();
  const clientId = "agentdesk";
  const clientSecret = randomBytes(24).toString("hex");
  let provider: Provider | null = null;

  const server = createServer((request, response) => {
    if (!provider) return void response.writeHead(503).end();
    const interaction = /^\/interaction\/([\w-]+)(?:\/(login|confirm))?$/.exec(
      new URL(request.url ?? "/", "http://x").pathname,
    );
    if (!interaction) return provider.callback()(request, response);
    const step = (interaction[2] ?? null) as "login" | "confirm" | null;
    interact(provider, request, response, step).catch((error: Error) => {
      response.writeHead(500, { "content-type": "text/plain" }).end(error.message);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  async function interact(
    oidc: Provider,
    request: IncomingMessage,
    response: ServerResponse,
    step: "login" | "confirm" | null,
  ): Promise<void> {
    const details = await oidc.interactionDetails(request, response);
    const action = `/interaction/${details.uid}/${details.prompt.name === "login" ? "login" : "confirm"}`;
    if (step === null) {
      const fields =
        details.prompt.name === "login"
          ? '<input name="login" type="email"><input name="password" type="password"><button>Sign in</button>'
          : "<button>Allow</button>";
      response
        .writeHead(200, { "content-type": "text/html; charset=utf-8" })
        .end(`<form method="post" action="${action}">${fields}</form>`);
      return;
    }
    const form = new URLSearchParams(await bodyOf(request));
    if (step === "login") {
      const user = [...users.values()].find((known) => known.email === form.get("login"));
      if (!user || user.password !== form.get("password")) {
        response.writeHead(401, { "content-type": "text/plain" }).end("wrong login or password");
        return;
      }
      await oidc.interactionFinished(
        request,
        response,
        { login: { accountId: user.subject } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = details.grantId
      ? (await oidc.Grant.find(details.grantId))!
      : new oidc.Grant({ accountId: details.session!.accountId, clientId });
    const missingScope = details.prompt.details.missingOIDCScope;
    const missingClaims = details.prompt.details.missingOIDCClaims;
    if (missingScope) grant.addOIDCScope(missingScope.join(" "));
    if (missingClaims) grant.addOIDCClaims(missingClaims);
    await oidc.interactionFinished(
      request,
      response,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  const stored = new Map<string, Record<string, unknown>>();
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  provider = new Provider(issuer, {
    adapter: (model: string) => new MemoryStore(model, stored),
    jwks: { keys: [{ ...privateKey.export({ format: "jwk" }), kid: "test", use: "sig" }] },
    cookies: { keys: [randomBytes(16).toString("hex")] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [options.redirectUri],
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    pkce: { required: () => true },
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      Grant: 3600,
      IdToken: 600,
      Interaction: 600,
      Session: 3600,
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    features: { devInteractions: { enabled: false } },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    async findAccount(_ctx: unknown, subject: string) {
      const user = users.get(subject);
      if (!user) return undefined;
      return {
        accountId: subject,
        claims: async () => ({
          sub: subject,
          email: user.email,
          email_verified: user.emailVerified,
          name: user.name,
        }),
      };
    },
  });

  return {
    issuer,
    clientId,
    clientSecret,
    addUser: (user) => void users.set(user.subject, user),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => {
      body += chunk;
    });
    request.on("end", () => resolve(body));
    request.on("error", reject);
  });
}

/** The provider's storage (grants, codes, sessions, interactions) for one model, in memory. */
class MemoryStore implements Adapter {
  constructor(
    private readonly model: string,
    private readonly rows: Map<string, Record<string, unknown>>,
  ) {}

  private key(id: string) {
    return `${this.model}:${id}`;
  }
  private findBy(field: string, value: string) {
    for (const [key, row] of this.rows) {
      if (key.startsWith(`${this.model}:`) && row[field] === value) return row;
    }
    return undefined;
  }
  async upsert(id: string, payload: Record<string, unknown>) {
    this.rows.set(this.key(id), payload);
  }
  async find(id: string) {
    return this.rows.get(this.key(id));
  }
  async findByUid(uid: string) {
    return this.findBy("uid", uid);
  }
  async findByUserCode(userCode: string) {
    return this.findBy("userCode", userCode);
  }
  async consume(id: string) {
    const row = this.rows.get(this.key(id));
    if (row) row.consumed = Math.floor(Date.now() / 1000);
  }
  async destroy(id: string) {
    this.rows.delete(this.key(id));
  }
  async revokeByGrantId(grantId: string) {
    for (const [key, row] of this.rows) if (row.grantId === grantId) this.rows.delete(key);
  }
}
