import createClient from "openapi-fetch";
import type { paths } from "./schema.ts";

/**
 * Where the service is, as the browser sees it: the page is served at `<base>/console/…`, so a
 * proxy that puts the service under a path prefix keeps working (the server writes the prefix
 * into the page's `agentdesk-base` meta tag).
 */
export const basePath =
  document.querySelector<HTMLMetaElement>('meta[name="agentdesk-base"]')?.content ?? "";

/**
 * The console's only way to the service: the public API, typed from the served OpenAPI
 * document (schema.ts, generated), authenticated by the session cookie alone.
 */
export const api = createClient<paths>({ baseUrl: basePath, credentials: "same-origin" });

/** The JSON of a successful response of this path and method. */
export type ApiData<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends {
  responses: infer R;
}
  ? R extends { 200: { content: { "application/json": infer T } } }
    ? T
    : R extends { 201: { content: { "application/json": infer T } } }
      ? T
      : never
  : never;

/** A refusal of the API, with its status and the message of its error body. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

type Result<T> = { data?: T; error?: unknown; response: Response };

/** What the error body says, in the spec's envelope (`{error, type}`) or as plain text. */
function messageOf(error: unknown, response: Response): string {
  if (error && typeof error === "object" && "error" in error) {
    const text = (error as { error: unknown }).error;
    if (typeof text === "string" && text) return text;
  }
  if (typeof error === "string" && error) return error;
  return `The service answered ${response.status} ${response.statusText}`.trim();
}

/**
 * The data of an openapi-fetch result, or an ApiError. A network failure rejects before this
 * with the browser's TypeError, which the error states show as is.
 */
export async function unwrap<T>(request: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await request;
  if (response.ok) return data as T;
  const retryAfter = Number(response.headers.get("retry-after"));
  throw new ApiError(
    response.status,
    messageOf(error, response),
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}
