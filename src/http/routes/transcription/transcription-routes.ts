import multipart from "@fastify/multipart";
import type { FastifyReply } from "fastify";
import { z } from "zod";
import type { TranscriptionService } from "../../../domain/transcription/transcription-service.ts";
import { AppError } from "../../../lib/errors.ts";
import type { App } from "../../app-types.ts";
import { waitInWords } from "../../plugins/declared-limits.ts";
import { readAudioUpload } from "./transcription-upload.ts";

export type TranscriptionRouteDeps = { transcription: Pick<TranscriptionService, "transcribe"> };

export type TranscriptionSettings = {
  /** TRANSCRIBE_MAX_BYTES: a larger file gets 413. */
  maxBytes: number;
  /** TRANSCRIBE_RATE_LIMIT_PER_MINUTE, per client IP. */
  rateLimitPerMinute: number;
};

/** Aborts when the client disconnects before the answer is written, to stop the provider call. */
export function clientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on("close", () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

// Documents the form in the OpenAPI document only: the multipart parser, not a schema, reads it.
const formFields = z.object({
  file: z.file().describe("The audio: audio/wav, audio/webm or audio/ogg (Opus)"),
  agentId: z.string().describe("Id of a public agent"),
});
export const documentationOnly = () => (value: unknown) => ({ value });

const description =
  "multipart/form-data with `file` (audio/wav, audio/webm or Ogg Opus audio/ogg, recognised from " +
  "its own bytes) and `agentId` (a public agent). No API key: the agent's organization is " +
  "charged per second of audio. Rate limited per client IP.";

/** POST /api/transcribe-audio, in its own scope: its multipart parser stays here. */
export function registerTranscriptionRoutes(
  app: App,
  deps: TranscriptionRouteDeps,
  settings: TranscriptionSettings,
): void {
  app.register(async (scope: App) => {
    // If a parent scope already has it, registering again would fail (multipart decorators).
    if (!scope.hasRequestDecorator("isMultipart")) await scope.register(multipart);

    scope.post(
      "/api/transcribe-audio",
      {
        config: {
          auth: "public",
          // Per client IP, counted as calls arrive: refused ones count too, since the limit
          // protects an endpoint anyone who knows a public agent's id can call.
          limits: [
            {
              name: "transcription:ip",
              key: (request) => request.ip,
              max: settings.rateLimitPerMinute,
              per: "minute",
              counted: "on-arrival",
              announced: true,
              refusal: (seconds) =>
                new AppError(
                  "RATE_LIMITED",
                  `Too many transcriptions from this address; retry in ${waitInWords(seconds)}`,
                ),
            },
          ],
        },
        validatorCompiler: documentationOnly,
        schema: {
          operationId: "transcribeAudio",
          tags: ["transcription"],
          summary: "Transcribe a short audio file for a public agent",
          description,
          consumes: ["multipart/form-data"],
          body: formFields,
          response: { 200: z.object({ text: z.string() }) },
          errors: {
            400: "No file, a file that is not audio/wav, audio/webm or Ogg Opus, or a malformed form",
            401: "agentId is missing, unknown, or not the id of a public agent",
            402: "Usage limit: the agent's organization cannot pay for this audio",
            413: "The audio file is larger than TRANSCRIBE_MAX_BYTES",
            500: "Transcription failed, or speech-to-text is not configured",
          },
        },
      },
      async (request, reply) => {
        const upload = await readAudioUpload(request, settings.maxBytes);
        return deps.transcription.transcribe({
          ...upload,
          requestId: request.id,
          signal: clientGone(reply),
        });
      },
    );
  });
}
