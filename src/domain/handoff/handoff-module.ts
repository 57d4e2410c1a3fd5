import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Metrics } from "../../ops/metrics.ts";
import type { ChannelReplies } from "../channels/channel-replies.ts";
import { createConversationRepo } from "../conversations/conversation-repo.ts";
import type { EventPublisher } from "../events/event-types.ts";
import { createWebhookDeliveryRepo } from "../webhooks/webhook-delivery-repo.ts";
import { createWebhookWindowRepo } from "../webhooks/webhook-window-repo.ts";
import { createHandoffRepo } from "./handoff-repo.ts";
import { createHandoffService } from "./handoff-service.ts";

/** Human handoff: the conversation's state and the replies people write. */
export function createHandoffModule(deps: {
  db: Db;
  channels: ChannelReplies;
  events: EventPublisher;
  jobs: Pick<JobQueue, "send">;
  metrics: Pick<Metrics, "firstHumanReply" | "readWaitingForHumanFrom">;
}) {
  const { db } = deps;
  const handoff = createHandoffRepo(db);
  deps.metrics.readWaitingForHumanFrom(() => handoff.waitingForHuman().catch(() => null));
  return {
    handoff: createHandoffService({
      db,
      handoff,
      conversations: createConversationRepo(db),
      channels: deps.channels,
      windows: createWebhookWindowRepo(db),
      deliveries: createWebhookDeliveryRepo(db),
      events: deps.events,
      jobs: deps.jobs,
      metrics: deps.metrics,
    }),
  };
}
