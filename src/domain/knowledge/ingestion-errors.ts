import { EmbedderError } from "../../ingestion/embedders/embedder-types.ts";
import { DocumentLoadError, UnsupportedFileTypeError } from "../../ingestion/loaders/index.ts";
import { WebPageError } from "../../ingestion/loaders/web-page.ts";
import { WebSiteError } from "../../ingestion/loaders/web-site.ts";
import { SitemapError } from "../../ingestion/loaders/web-sitemap.ts";
import { FetchFailedError, UnsafeUrlError } from "../../lib/safe-fetch.ts";
import { ModelError } from "../../models/model-errors.ts";

// Errors whose messages were written for the datasource's error field: no internals in them.
const EXPLAINED = [
  DocumentLoadError,
  UnsupportedFileTypeError,
  WebPageError,
  WebSiteError,
  SitemapError,
  UnsafeUrlError,
  FetchFailedError,
  EmbedderError,
  ModelError,
];

export const UNEXPECTED_FAILURE = "Ingestion failed unexpectedly; the error was logged";

/** The message stored on a datasource that failed, or null when the error is not one we explain. */
export function explainIngestionError(error: unknown): string | null {
  return EXPLAINED.some((type) => error instanceof type) ? (error as Error).message : null;
}

export function describeIngestionError(error: unknown): string {
  return explainIngestionError(error) ?? UNEXPECTED_FAILURE;
}
