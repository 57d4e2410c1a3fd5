import type { Logger } from "../lib/logger.ts";

type SdkWarnings = { warnings: unknown[]; provider: string; model: string };

declare global {
  // The AI SDK's hook for its warnings (ai/dist: logWarnings); it prints to the console without one.
  var AI_SDK_LOG_WARNINGS: false | ((options: SdkWarnings) => void) | undefined;
}

/**
 * Sends the AI SDK's warnings (a feature a model does not support, such as tools for the offline
 * responder) to the logger at debug, so the log stays JSON lines; the SDK would print them as
 * plain text on the console, once per answer.
 */
export function logModelWarnings(logger: Logger): void {
  globalThis.AI_SDK_LOG_WARNINGS = ({ warnings, provider, model }) => {
    logger.debug({ provider, model, warnings }, "model warnings");
  };
}
