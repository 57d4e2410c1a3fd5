import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypts small secrets (channel credentials) at rest with AES-256-GCM. */
export type SecretBox = {
  seal(plain: string): string;
  /** Throws when the text was not sealed with this key or was altered. */
  open(sealed: string): string;
};

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error("A secret box needs a 32-byte key");
  return {
    seal(plain) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
    },
    open(sealed) {
      const [version, encoded] = sealed.split(":");
      if (version !== VERSION || !encoded) throw new Error("Not a sealed secret");
      const bytes = Buffer.from(encoded, "base64");
      const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, IV_BYTES));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([
        decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)),
        decipher.final(),
      ]).toString("utf8");
    },
  };
}

/**
 * The key in `path`, written there (hex, readable by its owner only) on first use: the embedded
 * database's installation keeps its key next to its data.
 */
export async function loadOrCreateKeyFile(path: string): Promise<Buffer> {
  try {
    return Buffer.from((await readFile(path, "utf8")).trim(), "hex");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const key = randomBytes(32);
  await mkdir(dirname(path), { recursive: true });
  try {
    await writeFile(path, `${key.toString("hex")}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another process wrote it first: that key is the installation's.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") return loadOrCreateKeyFile(path);
    throw error;
  }
  await chmod(path, 0o600);
  return key;
}
