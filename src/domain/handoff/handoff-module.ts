import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Metrics } from "../../ops/metrics.ts";
import type { Mailer } from "../accounts/mailer.ts";
import type { ChannelReplies } from "../channels/channel-replies.ts";
import type { ConversationRepo } from "../conversations/conversation-repo.ts";
import type { EventPublisher } from "../events/event-types.ts";
import type { WebhookDeliveryRepo } from "../webhooks/webhook-delivery-repo.ts";
import type { WebhookWindowRepo } from "../webhooks/webhook-window-repo.ts";
import { createHandoffNotifier } from "./handoff-notifier.ts";
import { createHandoffRepo, type HandoffRepo } from "./handoff-repo.ts";
import { createHandoffService } from "./handoff-service.ts";

/**
 * The mail to the assignee or the members when a customer asks for a person. Made before the
 * live events it follows, so apart from the rest of handoff, which publishes through them.
 */
export function createHandoffNotifications(deps: {
  db: Db;
  mailer: Pick<Mailer, "enabled" | "send">;
  jobs: Pick<JobQueue, "send">;
  publicUrl: string;
}) {
  const handoffRecords = createHandoffRepo(deps.db);
  return {
    handoffRecords,
    handoffNotifier: createHandoffNotifier({ ...deps, handoff: handoffRecords }),
  };
}

/** Human handoff: the conversation's state and the replies people write. */
export function createHandoffModule(deps: {
  db: Db;
  /** The handoff records of `createHandoffNotifications`. */
  handoff: HandoffRepo;
  conversations: ConversationRepo;
  /** An api conversation's operator reply goes to its latest webhook URL, as a delivery. */
  webhooks: { windows: WebhookWindowRepo; deliveries: WebhookDeliveryRepo };
  channels: ChannelReplies;
  events: EventPublisher;
  jobs: Pick<JobQueue, "send">;
  metrics: Pick<Metrics, "firstHumanReply" | "readWaitingForHumanFrom">;
}) {
  const { db, handoff } = deps;
  deps.metrics.readWaitingForHumanFrom(() => handoff.waitingForHuman().catch(() => null));
  return {
    handoff: createHandoffService({
      db,
      handoff,
      conversations: deps.conversations,
      channels: deps.channels,
      windows: deps.webhooks.windows,
      deliveries: deps.webhooks.deliveries,
      events: deps.events,
      jobs: deps.jobs,
      metrics: deps.metrics,
    }),
  };
}
