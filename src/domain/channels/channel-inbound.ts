import type { ChannelType } from "../../db/schema/index.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import { AppError, invalid, notFound, unauthorized } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import type { CHANNEL_INBOUND_OUTCOMES } from "../../ops/metrics.ts";
import {
  InboundFormatError,
  type InboundReading,
  type InboundRequest,
  type PlatformContext,
} from "./channel-adapter.ts";
import type { ChannelLaneRepo } from "./channel-lane-repo.ts";
import type { ChannelRepo, ChannelRow } from "./channel-repo.ts";
import type { ChannelService, OpenedChannel } from "./channel-service.ts";

/** How an inbound request ended, for the metrics. */
type InboundOutcome = (typeof CHANNEL_INBOUND_OUTCOMES)[number];

export type InboundAnswer = { status: number; contentType: string; body: string };

export type ChannelInboundDeps = {
  channels: Pick<ChannelRepo, "touch"> & Pick<ChannelService, "findForInbound">;
  lanes: Pick<ChannelLaneRepo, "receive" | "updateDelivery">;
  open(row: ChannelRow): OpenedChannel;
  jobs: Pick<JobQueue, "send">;
  /** What an adapter reads with (mail: its thread). */
  platform: PlatformContext;
  batchDelayMs: number;
  onOutcome(type: ChannelType, outcome: InboundOutcome): void;
  logger: Logger;
};

/** What PostgreSQL can store: no NUL, no unpaired surrogate. */
const storable = (text: string) => text.replaceAll("\u0000", "").toWellFormed();

const OK: InboundAnswer = { status: 200, contentType: "application/json", body: '{"ok":true}' };

/**
 * The one inbound path of every platform: the channel, then the signature on the raw body,
 * then the messages stored (a platform's id seen before stores nothing) and their answer queued
 * as a job; the platform has its 200 without waiting for any model.
 */
export function createChannelInbound(deps: ChannelInboundDeps) {
  async function receive(
    type: ChannelType,
    channelId: string,
    request: InboundRequest,
  ): Promise<InboundAnswer> {
    const row = await deps.channels.findForInbound(channelId);
    if (!row || row.type !== type || !row.enabled) {
      deps.onOutcome(type, "not_found");
      throw notFound("No enabled channel here");
    }
    const channel = deps.open(row);
    if (request.method === "POST" && !channel.adapter.verify(request, channel, new Date())) {
      deps.onOutcome(type, "unauthorized");
      throw unauthorized("The request's signature or secret does not match this channel");
    }
    return accept(channel, request);
  }

  /**
   * What follows the signature check; also the way in of what the service fetched itself from
   * the platform (a mail channel's IMAP mailbox), which has nothing to sign.
   */
  async function accept(channel: OpenedChannel, request: InboundRequest): Promise<InboundAnswer> {
    const { row } = channel;
    const { type } = row;
    let reading: InboundReading;
    try {
      reading = await channel.adapter.read(request, channel, deps.platform);
    } catch (error) {
      if (!(error instanceof InboundFormatError)) throw error;
      deps.onOutcome(type, "invalid");
      throw invalid(error.message);
    }
    if (reading.kind === "handshake") {
      deps.onOutcome(type, "handshake");
      if (reading.status >= 400) throw new AppError("FORBIDDEN", reading.body);
      return { status: reading.status, contentType: reading.contentType, body: reading.body };
    }
    if (reading.messages.length === 0) await deps.channels.touch(row.id);
    for (const status of reading.statuses) {
      await deps.lanes.updateDelivery(
        row.id,
        status.platformMessageId,
        status.status,
        status.error,
      );
      deps.onOutcome(type, "status");
    }
    // Whatever was written before the channel existed is history, not a question to us.
    const since = Math.floor(row.createdAt.getTime() / 1000) * 1000;
    const jobs = new Map<string, Date>();
    for (const message of reading.messages) {
      if (message.sentAt.getTime() < since) {
        deps.onOutcome(type, "ignored");
        continue;
      }
      const received = await deps.lanes.receive({
        id: newId(),
        threadId: newId(),
        organizationId: row.organizationId,
        channelId: row.id,
        threadKey: message.threadKey,
        replyTo: message.replyTo,
        sender: {
          ...message.sender,
          ...(message.sender.name ? { name: storable(message.sender.name) } : {}),
        },
        platformMessageId: message.platformMessageId,
        payload: { ...message.payload, text: storable(message.payload.text) },
        sentAt: message.sentAt,
        platformOrder: message.platformOrder ?? null,
        delayMs: deps.batchDelayMs,
      });
      deps.onOutcome(type, received.isNew ? "accepted" : "duplicate");
      // Only when the lane has no job queued: one burst, one job.
      if (received.turnDueAt) jobs.set(received.threadId, received.turnDueAt);
    }
    if (reading.messages.length === 0 && reading.statuses.length === 0) {
      deps.onOutcome(type, "ignored");
    }
    for (const [threadId, dueAt] of jobs) {
      await deps.jobs.send(
        "channel.turn",
        { organizationId: row.organizationId, threadId },
        { startAfter: dueAt },
      );
    }
    return OK;
  }

  return { receive, accept };
}

export type ChannelInbound = ReturnType<typeof createChannelInbound>;
