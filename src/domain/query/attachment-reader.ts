import {
  DocumentLoadError,
  detectFileType,
  UnsupportedFileTypeError,
} from "../../ingestion/loaders/index.ts";
import type { DocumentParser } from "../../ingestion/parser/document-parser.ts";
import { invalid } from "../../lib/errors.ts";
import { FetchFailedError, type SafeFetcher, UnsafeUrlError } from "../../lib/safe-fetch.ts";

export type AttachmentLimits = {
  maxBytes: number;
  timeoutMs: number;
  /** Estimated tokens of text for all attachments of one message together. */
  tokenBudget: number;
};

export type AttachmentText = { url: string; name: string; text: string; truncated: boolean };

function fileNameOf(url: string): string {
  try {
    const last = new URL(url).pathname.split("/").filter(Boolean).at(-1);
    return last ? decodeURIComponent(last) : "attachment";
  } catch {
    return "attachment";
  }
}

/**
 * A file kept with its message as a data: URL (`data:<type>;name=<file name>;base64,<bytes>`):
 * how a mail's attachments are stored (docs/channels.md). Null for any other data: URL.
 */
function fromDataUrl(url: string) {
  const match = /^data:([^;,]+)((?:;[^;,=]+=[^;,]*)*);base64,(.*)$/s.exec(url);
  if (!match) return null;
  const name = /;name=([^;,]*)/.exec(match[2] ?? "")?.[1];
  return {
    bytes: Buffer.from(match[3]!, "base64"),
    contentType: match[1]!,
    name: name ? decodeURIComponent(name) : "attachment",
  };
}

function refuse(url: string, reason: string, index: number) {
  return invalid(`Attachment ${url} cannot be used: ${reason}`, [
    { path: `body.attachments.${index}.url`, message: reason },
  ]);
}

/**
 * Fetches attachments through the SSRF-safe fetcher and turns them into text with the knowledge
 * loaders (in the document parser's threads), each cut to its share of the token budget. Any failure is the client's to fix: 400
 * with the reason (unreachable, refused address, too large, unsupported or unreadable file).
 */
export function createAttachmentReader(deps: {
  fetcher: SafeFetcher;
  parser: Pick<DocumentParser, "load">;
  limits: AttachmentLimits;
}) {
  const { limits } = deps;

  async function readOne(givenUrl: string, index: number, share: number): Promise<AttachmentText> {
    let url = givenUrl;
    let bytes: Buffer;
    let contentType: string | null;
    let name = fileNameOf(url);
    const stored = url.startsWith("data:") ? fromDataUrl(url) : null;
    if (stored) {
      // A file that came with the message itself (a mail's attachment): nothing to fetch.
      ({ bytes, contentType, name } = stored);
      // Errors name the file, not its bytes.
      url = `attachment ${name}`;
    } else {
      try {
        const response = await deps.fetcher.fetch(url, {
          maxBytes: limits.maxBytes,
          timeoutMs: limits.timeoutMs,
          accept: "*/*",
        });
        if (response.status < 200 || response.status >= 300) {
          throw refuse(url, `the server answered HTTP ${response.status}`, index);
        }
        bytes = response.body;
        contentType = response.contentType;
      } catch (error) {
        if (error instanceof UnsafeUrlError || error instanceof FetchFailedError) {
          throw refuse(url, error.message, index);
        }
        throw error;
      }
    }
    let text: string;
    try {
      const mimeType = detectFileType(bytes, contentType ?? undefined, name);
      const sections = await deps.parser.load(
        { bytes, mimeType, fileName: name },
        { limits: { timeoutMs: limits.timeoutMs } },
      );
      text = sections.map((section) => section.text).join("\n\n");
    } catch (error) {
      if (error instanceof UnsupportedFileTypeError || error instanceof DocumentLoadError) {
        throw refuse(url, error.message, index);
      }
      throw error;
    }
    const maxCharacters = share * 4;
    const truncated = text.length > maxCharacters;
    return { url, name, text: truncated ? `${text.slice(0, maxCharacters)}…` : text, truncated };
  }

  return {
    async read(urls: readonly string[]): Promise<AttachmentText[]> {
      if (urls.length === 0) return [];
      const share = Math.floor(limits.tokenBudget / urls.length);
      return Promise.all(urls.map((url, index) => readOne(url, index, share)));
    },
  };
}

export type AttachmentReader = ReturnType<typeof createAttachmentReader>;
