import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** Raised when another live process already owns the embedded database directory. */
export class DataDirLockedError extends Error {
  override name = "DataDirLockedError";
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The embedded database can be opened by one process only; a second writer would corrupt it.
 * Returns the release function. A lock left by a dead process is taken over.
 */
export function acquireDataDirLock(dataDir: string): () => void {
  const lockFile = join(dataDir, "agentdesk.pid");
  try {
    writeFileSync(lockFile, String(process.pid), { flag: "wx" });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const owner = Number.parseInt(readFileSync(lockFile, "utf8"), 10);
    if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
      throw new DataDirLockedError(
        `The embedded database in ${dataDir} is in use by process ${owner}. Stop it first, ` +
          "or use the admin API (/api/admin/*) of the running server.",
      );
    }
    writeFileSync(lockFile, String(process.pid));
  }
  return () => rmSync(lockFile, { force: true });
}
