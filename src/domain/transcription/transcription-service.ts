import { NoTranscriptGeneratedError, experimental_transcribe as transcribe } from "ai";
import { AppError, invalid, unauthorized } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";
import { ModelConfigError, ModelError } from "../../models/model-errors.ts";
import { toModelProviderError } from "../../models/model-failure.ts";
import { type ModelRegistry, parseModelSpec } from "../../models/model-registry.ts";
import type { TranscriptionModelV3 } from "../../models/model-types.ts";
import {
  type Billing,
  RESERVATION_MARGIN_MS,
  releasingOnFailure,
} from "../billing/billing-port.ts";
import { AudioFormatError, type AudioInfo } from "./audio-format-error.ts";
import { probeAudio } from "./audio-probe.ts";

/** The only agent fields transcription needs, looked up without an organization (no key). */
type PublicAgentLookup = {
  findByIdInAnyOrganization(agentId: string): Promise<{
    id: string;
    organizationId: string;
    visibility: "public" | "private";
  } | null>;
};

export type TranscriptionServiceDeps = {
  agents: PublicAgentLookup;
  billing: Pick<Billing, "reserve" | "release" | "charge">;
  models: Pick<ModelRegistry, "resolveTranscriptionModel">;
  /** TRANSCRIPTION_MODEL ("provider:model") and its optional dedicated endpoint. */
  model: { spec: string; baseUrl?: string | undefined; apiKey?: string | undefined };
  /** Bounds one transcription at the provider, retries included. */
  timeoutMs: number;
  logger: Pick<Logger, "warn">;
};

export type TranscriptionRequest = {
  agentId: string | undefined;
  /** The uploaded bytes; the name and MIME type the client gave are deliberately not used. */
  file: Uint8Array | undefined;
  requestId: string;
  /** Aborted when the client goes away, so the provider call stops too. */
  signal?: AbortSignal;
};

// One retry of a retryable provider failure (429, 5xx), inside the overall timeout: the caller
// is waiting for an answer, so a longer retry ladder would only make it wait longer.
const MAX_RETRIES = 1;

const PUBLIC_AGENT_REQUIRED = "agentId must be the id of a public agent";

/** Fails at boot, naming the setting, when TRANSCRIPTION_MODEL names no known provider. */
function modelSpecOf(spec: string) {
  try {
    return parseModelSpec(spec);
  } catch (error) {
    throw new ModelConfigError(`TRANSCRIPTION_MODEL: ${(error as Error).message}`);
  }
}

/** POST /api/transcribe-audio: speech-to-text for public agents, billed in seconds of audio. */
export function createTranscriptionService(deps: TranscriptionServiceDeps) {
  const { provider, modelId } = modelSpecOf(deps.model.spec);

  async function publicAgent(agentId: string | undefined) {
    const id = agentId?.trim();
    if (!id) throw unauthorized(`agentId is required: ${PUBLIC_AGENT_REQUIRED}`);
    const agent = await deps.agents.findByIdInAnyOrganization(id);
    // Unknown and private agents get the same answer, so ids of private agents cannot be probed.
    if (agent?.visibility !== "public") throw unauthorized(PUBLIC_AGENT_REQUIRED);
    return agent;
  }

  function readAudio(file: Uint8Array | undefined): { bytes: Uint8Array; info: AudioInfo } {
    if (!file || file.length === 0) {
      throw invalid("file is required: a WAV, WebM or Ogg Opus audio file (multipart/form-data)");
    }
    try {
      return { bytes: file, info: probeAudio(file) };
    } catch (error) {
      if (error instanceof AudioFormatError) {
        throw invalid(
          `Invalid audio file: ${error.message}. Send audio/wav, audio/webm or audio/ogg (Opus).`,
        );
      }
      throw error;
    }
  }

  function resolveModel(requestId: string): TranscriptionModelV3 {
    try {
      return deps.models.resolveTranscriptionModel(deps.model.spec, {
        ...(deps.model.baseUrl ? { baseUrl: deps.model.baseUrl } : {}),
        ...(deps.model.apiKey ? { apiKey: deps.model.apiKey } : {}),
      });
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      // The operator's log names the missing variable; the anonymous caller learns only this.
      deps.logger.warn({ requestId, reason: error.message }, "transcription is not configured");
      throw new AppError("INTERNAL", "Transcription failed: speech-to-text is not configured");
    }
  }

  async function speechToText(request: TranscriptionRequest, audio: Uint8Array) {
    const model = resolveModel(request.requestId);
    const timeout = AbortSignal.timeout(deps.timeoutMs);
    const abortSignal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    try {
      const result = await transcribe({ model, audio, maxRetries: MAX_RETRIES, abortSignal });
      return result.text;
    } catch (error) {
      // Silence is a valid recording: the provider answered, with nothing to write down.
      if (NoTranscriptGeneratedError.isInstance(error)) return "";
      const failure = toModelProviderError(error, deps.model.spec);
      deps.logger.warn(
        { requestId: request.requestId, providerStatus: failure.providerStatus },
        failure.message,
      );
      throw new AppError("INTERNAL", `Transcription failed: ${failure.message}`);
    }
  }

  return {
    /** Checks the agent, the audio and the organization's credits, transcribes, then charges. */
    async transcribe(request: TranscriptionRequest): Promise<{ text: string }> {
      const agent = await publicAgent(request.agentId);
      const audio = readAudio(request.file);
      const usage = {
        organizationId: agent.organizationId,
        feature: "transcription",
        provider,
        modelName: modelId,
        inputTokens: 0,
        outputTokens: 0,
        units: audio.info.durationSeconds,
      };
      const reservation = await deps.billing.reserve({
        ...usage,
        holdMs: deps.timeoutMs + RESERVATION_MARGIN_MS,
      });
      const text = await releasingOnFailure(deps.billing, reservation, () =>
        speechToText(request, audio.bytes),
      );
      await deps.billing.charge({
        ...usage,
        agentId: agent.id,
        reservationId: reservation.id,
        metadata: {
          format: audio.info.format,
          durationSource: audio.info.durationSource,
          bytes: audio.bytes.length,
          requestId: request.requestId,
        },
      });
      return { text };
    },
  };
}

export type TranscriptionService = ReturnType<typeof createTranscriptionService>;
