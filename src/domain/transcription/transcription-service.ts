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
  /** TRANSCRIBE_MAX_BYTES: the largest audio file accepted. */
  maxBytes: number;
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

/** A voice message a messaging channel received for an agent it already knows. */
export type AgentTranscriptionRequest = {
  organizationId: string;
  agentId: string;
  audio: Uint8Array;
  requestId: string;
  signal?: AbortSignal;
  /** Kept in the consumption event's metadata beside the audio's own facts (e.g. the channel). */
  metadata?: Record<string, unknown>;
};

type ProbedAudio = { bytes: Uint8Array; info: AudioInfo };

/** What both entry points bill once the agent is known and the audio has passed its checks. */
type BilledTranscription = Omit<AgentTranscriptionRequest, "audio"> & { audio: ProbedAudio };

// One retry of a retryable provider failure (429, 5xx), inside the overall timeout: the caller
// is waiting for an answer, so a longer retry ladder would only make it wait longer.
const MAX_RETRIES = 1;

const PUBLIC_AGENT_REQUIRED = "agentId must be the id of a public agent";

const formatSize = (bytes: number) =>
  bytes >= 1024 * 1024
    ? `${Math.round((bytes / 1024 / 1024) * 100) / 100} MiB`
    : `${Math.round((bytes / 1024) * 10) / 10} KiB`;

/** 413: the audio is over TRANSCRIBE_MAX_BYTES, however it arrived. */
export const audioTooLarge = (maxBytes: number) =>
  new AppError("PAYLOAD_TOO_LARGE", `The audio file is larger than ${formatSize(maxBytes)}`);

/** Fails at boot, naming the setting, when TRANSCRIPTION_MODEL names no known provider. */
function modelSpecOf(spec: string) {
  try {
    return parseModelSpec(spec);
  } catch (error) {
    throw new ModelConfigError(`TRANSCRIPTION_MODEL: ${(error as Error).message}`);
  }
}

/**
 * Speech-to-text billed in seconds of audio: POST /api/transcribe-audio for public agents, and
 * voice messages the messaging channels receive for their agents.
 */
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

  /** The checks every caller's audio passes: its size, then its format and duration. */
  function readAudio(bytes: Uint8Array): ProbedAudio {
    if (bytes.length > deps.maxBytes) throw audioTooLarge(deps.maxBytes);
    try {
      return { bytes, info: probeAudio(bytes) };
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

  async function speechToText(
    request: Pick<BilledTranscription, "requestId" | "signal">,
    audio: Uint8Array,
  ) {
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

  /** Reserves the audio's seconds, transcribes, then charges them (or releases on failure). */
  async function billedTranscription(request: BilledTranscription): Promise<string> {
    const { audio } = request;
    const usage = {
      organizationId: request.organizationId,
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
      agentId: request.agentId,
      reservationId: reservation.id,
      metadata: {
        ...request.metadata,
        format: audio.info.format,
        durationSource: audio.info.durationSource,
        bytes: audio.bytes.length,
        requestId: request.requestId,
      },
    });
    return text;
  }

  return {
    /** Checks the agent, the audio and the organization's credits, transcribes, then charges. */
    async transcribe(request: TranscriptionRequest): Promise<{ text: string }> {
      const agent = await publicAgent(request.agentId);
      if (!request.file || request.file.length === 0) {
        throw invalid("file is required: a WAV, WebM or Ogg Opus audio file (multipart/form-data)");
      }
      const text = await billedTranscription({
        organizationId: agent.organizationId,
        agentId: agent.id,
        audio: readAudio(request.file),
        requestId: request.requestId,
        signal: request.signal,
      });
      return { text };
    },

    /**
     * For messaging channels, which already know the organization and the agent: the same
     * audio checks and billing as `transcribe`, without the public-agent check.
     */
    async transcribeForAgent(
      request: AgentTranscriptionRequest,
    ): Promise<{ text: string; durationSeconds: number }> {
      const audio = readAudio(request.audio);
      const text = await billedTranscription({ ...request, audio });
      return { text, durationSeconds: audio.info.durationSeconds };
    },
  };
}

export type TranscriptionService = ReturnType<typeof createTranscriptionService>;
