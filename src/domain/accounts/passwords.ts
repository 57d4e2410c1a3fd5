import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from "node:crypto";
import { invalid } from "../../lib/errors.ts";

/** scrypt's cost (N = 2^15, r = 8, p = 1: OWASP's minimum), about 50 ms on one core. */
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_BYTES = 32;
const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** Refuses a password the service would not store, with a message for the person typing it. */
export function checkPasswordStrength(password: string): void {
  if (password.length < PASSWORD_MIN_LENGTH) {
    throw invalid(`The password must have at least ${PASSWORD_MIN_LENGTH} characters`);
  }
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw invalid(`The password must have at most ${PASSWORD_MAX_LENGTH} characters`);
  }
}

/** `scrypt$N$r$p$salt$hash` (base64url): the parameters travel with the hash. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, COST);
  return [
    "scrypt",
    COST.N,
    COST.r,
    COST.p,
    salt.toString("base64url"),
    key.toString("base64url"),
  ].join("$");
}

/** A hash of no one's password, checked when the e-mail is unknown so both take as long. */
const decoy = hashPassword(randomBytes(24).toString("base64url"));

/** Whether the password matches; a missing hash costs the same time as a wrong password. */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = (stored ?? (await decoy)).split("$");
  if (scheme !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64url");
  const key = await derive(password, Buffer.from(salt, "base64url"), {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: COST.maxmem,
  });
  return stored !== null && key.length === expected.length && timingSafeEqual(key, expected);
}
