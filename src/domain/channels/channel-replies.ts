import type { Db } from "../../db/client.ts";
import type { ChannelType } from "../../db/schema/index.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { ChannelAdapter } from "./channel-adapter.ts";
import type { ChannelLaneRepo } from "./channel-lane-repo.ts";
import { maxCharsTo, replyWindowOpen } from "./channel-turns.ts";

/** Where a message written by a person goes out: the lane of the conversation's platform chat. */
export type ChannelRoute = {
  threadId: string;
  channelId: string;
  type: ChannelType;
  /** The platform still takes free text (WhatsApp: within 24 hours of the customer's message). */
  windowOpen: boolean;
  /** The longest message the platform takes in this chat. */
  maxChars: number;
};

/** Messages written by people (operators' replies) sent through the conversation's channel. */
export function createChannelReplies(deps: {
  lanes: Pick<ChannelLaneRepo, "threadOfConversation" | "queueSends">;
  channelTypeOf(channelId: string, organizationId: string): Promise<ChannelType | null>;
  adapters: ReadonlyMap<ChannelType, ChannelAdapter>;
  jobs: Pick<JobQueue, "send">;
}) {
  return {
    /** The conversation's channel route; null when it came from no channel (api, widget). */
    async routeOf(organizationId: string, conversationId: string): Promise<ChannelRoute | null> {
      const thread = await deps.lanes.threadOfConversation(organizationId, conversationId);
      if (!thread) return null;
      const type = await deps.channelTypeOf(thread.channelId, organizationId);
      const adapter = type ? deps.adapters.get(type) : undefined;
      if (!type || !adapter) return null;
      return {
        threadId: thread.id,
        channelId: thread.channelId,
        type,
        windowOpen: replyWindowOpen(adapter, thread),
        maxChars: maxCharsTo(adapter, thread.replyTo),
      };
    },

    /** Queues the message's send in the caller's transaction, after the lane's earlier ones. */
    async queue(
      route: ChannelRoute,
      message: { id: string; organizationId: string; createdAt: Date },
      tx: Db,
    ): Promise<void> {
      await deps.lanes.queueSends(
        [
          {
            messageId: message.id,
            organizationId: message.organizationId,
            channelId: route.channelId,
            threadId: route.threadId,
            createdAt: message.createdAt,
          },
        ],
        tx,
      );
    },

    /** After the commit: the lane's job sends what is queued. */
    async send(organizationId: string, route: ChannelRoute): Promise<void> {
      await deps.jobs.send("channel.turn", { organizationId, threadId: route.threadId });
    },
  };
}

export type ChannelReplies = ReturnType<typeof createChannelReplies>;
