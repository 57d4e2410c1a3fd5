import { basePath } from "../../api/client.ts";
import type { Datasource } from "./knowledge-api.ts";

/** The spec's accepted file types (POST /api/datasources, multipart), as the file picker's hint. */
export const ACCEPTED_FILE_TYPES = [
  ".txt",
  ".md",
  ".markdown",
  ".csv",
  ".json",
  ".pdf",
  ".docx",
  ".pptx",
  ".xlsx",
  "text/plain",
  "text/markdown",
  "text/csv",
  "application/json",
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "application/vnd.openxmlformats-officedocument.presentationml.presentation",
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
].join(",");

/** How many files are sent at once; the others wait for one of them to end. */
export const PARALLEL_UPLOADS = 3;

export class UploadError extends Error {
  override name = "UploadError";
}

/** The message of an API error body (`{error, type}`), or what the status says. */
function refusalOf(request: XMLHttpRequest): string {
  try {
    const body = JSON.parse(request.responseText) as { error?: unknown };
    if (typeof body.error === "string" && body.error) return body.error;
  } catch {
    // Not JSON (a proxy's page): the status says what happened.
  }
  return `The service answered ${request.status} ${request.statusText}`.trim();
}

/**
 * Sends one file as a `file` datasource of the datastore (multipart: type, datastoreId, file),
 * with XMLHttpRequest because fetch reports no upload progress. Resolves with the datasource,
 * rejects with the API's message.
 */
export function uploadFile(
  datastoreId: string,
  file: File,
  onProgress: (loaded: number, total: number) => void,
): Promise<Datasource> {
  return new Promise((resolve, reject) => {
    const form = new FormData();
    form.append("type", "file");
    form.append("datastoreId", datastoreId);
    form.append("file", file, file.name);
    const request = new XMLHttpRequest();
    request.open("POST", `${basePath}/api/datasources`);
    request.withCredentials = true;
    request.setRequestHeader("accept", "application/json");
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    };
    request.onload = () => {
      if (request.status === 201) {
        resolve(JSON.parse(request.responseText) as Datasource);
      } else {
        reject(new UploadError(refusalOf(request)));
      }
    };
    request.onerror = () =>
      reject(new UploadError("The service cannot be reached. Check your connection."));
    request.send(form);
  });
}

/** Runs `work` on every item, at most `limit` at a time, and waits for all to settle. */
export async function inParallel<T>(
  items: readonly T[],
  limit: number,
  work: (item: T) => Promise<unknown>,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
