import type { WebhooksConfig } from "../../config/webhooks-config.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { type SafeFetcher, UnsafeUrlError } from "../../lib/safe-fetch.ts";
import type { Metrics } from "../../ops/metrics.ts";
import type {
  AttemptResult,
  NewWebhookAttemptRow,
  WebhookDeliveryRepo,
  WebhookDeliveryRow,
} from "./webhook-delivery-repo.ts";
import { webhookHeaders } from "./webhook-signature.ts";

export type DeliverySettings = Pick<
  WebhooksConfig,
  "timeoutMs" | "retryBaseMs" | "maxAttempts" | "signingSecret"
>;

export type WebhookDeliveryDeps = {
  deliveries: WebhookDeliveryRepo;
  fetcher: Pick<SafeFetcher, "fetch">;
  jobs: Pick<JobQueue, "send">;
  logger: Logger;
  metrics: Pick<Metrics, "webhookAttempt">;
  settings: DeliverySettings & {
    /**
     * Headroom over the attempt's own timeout before another worker may take it over: one job
     * lease, the time after which a process that stopped renewing its jobs is taken for dead.
     */
    leaseMarginMs: number;
  };
};

const RESPONSE_SNIPPET_CHARS = 500;
const RESPONSE_MAX_BYTES = 64 * 1024;
/** Overdue deliveries requeued per run of webhook.recover; the next minute takes the rest. */
const RECOVER_BATCH = 200;

/** The first moment at which a lease stored in microseconds has surely run out. */
export function afterLease(leaseUntil: Date): Date {
  return new Date(leaseUntil.getTime() + 1);
}

/** Exponential backoff: retryBase, then twice as long each time (1, 2, 4… minutes by default). */
function retryDelayMs(settings: Pick<DeliverySettings, "retryBaseMs">, attempt: number) {
  return settings.retryBaseMs * 2 ** (attempt - 1);
}

type Outcome = {
  delivered: boolean;
  responseStatus: number | null;
  responseSnippet: string | null;
  error: string | null;
  /** Retrying cannot help (the address policy refused the URL). */
  permanent: boolean;
};

/** Sends webhook deliveries, one attempt at a time, and schedules the retries as jobs. */
export function createWebhookDeliveryService(deps: WebhookDeliveryDeps) {
  const { settings } = deps;

  async function post(delivery: WebhookDeliveryRow): Promise<Outcome> {
    const headers = webhookHeaders({
      event: delivery.event,
      deliveryId: delivery.id,
      body: delivery.payload,
      now: new Date(),
      signingSecret: settings.signingSecret,
    });
    try {
      const response = await deps.fetcher.fetch(delivery.url, {
        method: "POST",
        headers,
        body: delivery.payload,
        timeoutMs: settings.timeoutMs,
        maxBytes: RESPONSE_MAX_BYTES,
        // A redirected POST would change method or body on the way; receivers answer directly.
        maxRedirects: 0,
      });
      const delivered = response.status >= 200 && response.status < 300;
      return {
        delivered,
        responseStatus: response.status,
        responseSnippet: response.body.toString("utf8").slice(0, RESPONSE_SNIPPET_CHARS),
        error: delivered ? null : `The receiver answered HTTP ${response.status}`,
        permanent: false,
      };
    } catch (error) {
      const redirected = error instanceof UnsafeUrlError && error.reason === "too_many_redirects";
      const message = redirected
        ? "The receiver answered with a redirect, which webhooks do not follow"
        : error instanceof Error
          ? error.message
          : "The request failed";
      return {
        delivered: false,
        responseStatus: null,
        responseSnippet: null,
        error: message,
        permanent: error instanceof UnsafeUrlError && !redirected,
      };
    }
  }

  function nextState(attempt: number, outcome: Outcome): AttemptResult {
    if (outcome.delivered) return { state: "delivered" };
    const lastError = outcome.error ?? "The delivery failed";
    if (outcome.permanent || attempt >= settings.maxAttempts) return { state: "failed", lastError };
    return {
      state: "retrying",
      nextAttemptAt: new Date(Date.now() + retryDelayMs(settings, attempt)),
      lastError,
    };
  }

  const schedule = (organizationId: string, deliveryId: string, attempt: number, at: Date) =>
    deps.jobs.send("webhook.deliver", { organizationId, deliveryId, attempt }, { startAfter: at });

  /**
   * A job that found nothing to claim. An attempt in flight elsewhere (or in a worker that died
   * with it) is taken over when its lease runs out, by a job scheduled for that moment; should
   * its worker finish first, that job finds nothing to do. With `recover`, a lost retry is
   * scheduled again: after a crash between recording an attempt and scheduling the next one. A
   * duplicate job is harmless either way: claiming is a compare-and-set.
   */
  async function notClaimed(
    organizationId: string,
    deliveryId: string,
    attempt: number,
    recover: boolean,
  ) {
    const delivery = await deps.deliveries.findById(organizationId, deliveryId);
    if (!delivery) return;
    if (delivery.state === "sending" && delivery.attemptCount === attempt) {
      // A millisecond later: the lease is kept in microseconds, a Date in milliseconds.
      if (delivery.leaseUntil) {
        await schedule(organizationId, deliveryId, attempt, afterLease(delivery.leaseUntil));
      }
      return;
    }
    if (!recover) return;
    const waiting = delivery.state === "retrying" || delivery.state === "pending";
    if (waiting && delivery.attemptCount >= attempt - 1) {
      await schedule(organizationId, deliveryId, delivery.attemptCount + 1, delivery.nextAttemptAt);
    }
  }

  return {
    /**
     * The webhook.recover job: queues again the attempts that are overdue by two job leases (a
     * process died between storing a delivery and queueing its job). A job queued twice is
     * harmless: claiming an attempt is a compare-and-set.
     */
    async recoverOverdue(): Promise<number> {
      const overdue = await deps.deliveries.overdue(2 * settings.leaseMarginMs, RECOVER_BATCH);
      for (const delivery of overdue) {
        await schedule(delivery.organizationId, delivery.id, delivery.attemptCount + 1, new Date());
      }
      return overdue.length;
    },

    /**
     * Attempt number `attempt` of a delivery, unless another worker already made it (or is
     * making it: then it is taken over should its lease run out). Jobs pass `recover` so a lost
     * retry is rescheduled; the first attempt, made right after the answer is stored, does not
     * need it.
     */
    async attempt(
      organizationId: string,
      deliveryId: string,
      attempt: number,
      options: { recover: boolean } = { recover: true },
    ): Promise<void> {
      const leaseMs = settings.timeoutMs + settings.leaseMarginMs;
      const delivery = await deps.deliveries.claimAttempt(
        organizationId,
        deliveryId,
        attempt,
        leaseMs,
      );
      if (!delivery) {
        await notClaimed(organizationId, deliveryId, attempt, options.recover);
        return;
      }
      const startedAt = new Date();
      const outcome = await post(delivery);
      const result = nextState(attempt, outcome);
      const record: NewWebhookAttemptRow = {
        id: newId(),
        organizationId,
        deliveryId,
        attempt,
        outcome: outcome.delivered ? "delivered" : "failed",
        responseStatus: outcome.responseStatus,
        responseSnippet: outcome.responseSnippet,
        error: outcome.error,
        durationMs: Date.now() - startedAt.getTime(),
        startedAt,
      };
      await deps.deliveries.finishAttempt(record, result);
      deps.metrics.webhookAttempt(result.state);
      deps.logger.info(
        { deliveryId, attempt, state: result.state, responseStatus: outcome.responseStatus },
        "webhook attempt",
      );
      if (result.state === "retrying") {
        await schedule(organizationId, deliveryId, attempt + 1, result.nextAttemptAt);
      }
    },
  };
}

export type WebhookDeliveryService = ReturnType<typeof createWebhookDeliveryService>;
