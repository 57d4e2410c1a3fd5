/** The error vocabulary of the dashboard API; one table maps each type to its HTTP status. */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  UNAUTHORIZED: 401,
  USAGE_LIMIT: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONVERSATION_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;

export type ErrorDetail = { path: string; message: string };

/** A failure the client should see: its type decides the status, its message is safe to show. */
export class AppError extends Error {
  constructor(
    readonly type: ErrorType,
    message: string,
    readonly details?: ErrorDetail[],
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): number {
    return ERROR_STATUS[this.type];
  }
}

/** Too many attempts: the answer carries `Retry-After` with the seconds to wait. */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super("RATE_LIMITED", message);
  }
}

export const invalid = (message: string, details?: ErrorDetail[]) =>
  new AppError("INVALID_REQUEST", message, details);
export const notFound = (message: string) => new AppError("NOT_FOUND", message);
export const unauthorized = (message = "A valid API key is required") =>
  new AppError("UNAUTHORIZED", message);

const STATUS_TYPE = new Map<number, ErrorType>(
  Object.entries(ERROR_STATUS).map(([type, status]) => [status, type as ErrorType]),
);
STATUS_TYPE.set(404, "NOT_FOUND");

/** The error type that stands for a bare HTTP status (used for framework errors). */
export function errorTypeForStatus(status: number): ErrorType {
  return STATUS_TYPE.get(status) ?? (status >= 500 ? "INTERNAL" : "INVALID_REQUEST");
}
