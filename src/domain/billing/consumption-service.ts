import { AppError } from "../../lib/errors.ts";
import type { IsoInstant } from "../../lib/iso-instant.ts";
import { refuseOtherAgent } from "../caller.ts";
import type {
  ConsumptionEventRepo,
  ConsumptionEventRow,
  EventOrder,
} from "./consumption-event-repo.ts";
import { rangeOf } from "./consumption-range.ts";
import type { ConsumptionSummaryRepo, SummaryStack } from "./consumption-summary-repo.ts";
import {
  type EntityGroup,
  type SummaryGroupBy,
  TEMPORAL_GROUPS,
} from "./consumption-summary-request.ts";
import { microToCredits } from "./credits.ts";

export type EventListQuery = {
  startDate?: IsoInstant | undefined;
  endDate?: IsoInstant | undefined;
  agentId?: string | undefined;
  feature?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  conversationId?: string | undefined;
  page: number;
  limit: number;
  orderBy: EventOrder;
};

export type SummaryRequest = {
  startDate: IsoInstant;
  endDate: IsoInstant;
  groupBy: SummaryGroupBy;
  agentId?: string | undefined;
  feature?: string | undefined;
  provider?: string | undefined;
  stackBy?: EntityGroup | undefined;
};

/** Amounts of a period's part in credits, as the summary's own rows give them. */
function stackView(stack: SummaryStack, stackBy: EntityGroup) {
  return {
    stackKey: stack.stackKey,
    ...(stackBy === "agent" ? { agentName: stack.agentName } : {}),
    totalCreditsCharged: microToCredits(stack.creditsChargedMicro),
    totalInputTokens: stack.inputTokens,
    totalOutputTokens: stack.outputTokens,
    eventCount: stack.eventCount,
  };
}

/** The spec's Consumption event, amounts in credits rounded to 6 decimals. */
function consumptionEventView(event: ConsumptionEventRow, agentName: string | null) {
  return {
    id: event.id,
    organizationId: event.organizationId,
    agentId: event.agentId,
    feature: event.feature,
    provider: event.provider,
    modelName: event.modelName,
    inputTokens: event.inputTokens,
    outputTokens: event.outputTokens,
    units: event.units,
    creditsCharged: microToCredits(event.creditsChargedMicro),
    creditsChargedRaw: microToCredits(event.creditsChargedRawMicro),
    billingCoefficient: event.billingCoefficient,
    occurredAt: event.occurredAt.toISOString(),
    metadata: event.metadata,
    conversationId: event.conversationId,
    messageId: event.messageId,
    agent: event.agentId === null ? null : { id: event.agentId, name: agentName },
  };
}

/** Reading the ledger: the paginated list and the grouped summary. */
export function createConsumptionService(deps: {
  events: Pick<ConsumptionEventRepo, "list">;
  summaries: ConsumptionSummaryRepo;
}) {
  return {
    /** `agentIds`: the only agents a key made for some may see the events of. */
    async list(
      organizationId: string,
      query: EventListQuery,
      agentIds: readonly string[] | null = null,
    ) {
      if (query.agentId !== undefined) refuseOtherAgent({ agentIds }, query.agentId);
      const { rows, total } = await deps.events.list(
        organizationId,
        {
          ...rangeOf(query.startDate, query.endDate),
          agentId: query.agentId,
          agentIds,
          feature: query.feature,
          provider: query.provider,
          modelName: query.model,
          conversationId: query.conversationId,
        },
        { offset: (query.page - 1) * query.limit, limit: query.limit, orderBy: query.orderBy },
      );
      return {
        data: rows.map((row) => consumptionEventView(row.event, row.agentName)),
        pagination: {
          page: query.page,
          limit: query.limit,
          total,
          totalPages: Math.ceil(total / query.limit),
        },
      };
    },

    /**
     * The day totals the summary reads are not kept per key, so a key made for some agents
     * names one of them with `agentId` (403 otherwise).
     */
    async summary(
      organizationId: string,
      request: SummaryRequest,
      agentIds: readonly string[] | null = null,
    ) {
      if (agentIds !== null && request.agentId === undefined) {
        throw new AppError(
          "FORBIDDEN",
          "This key is limited to some agents: name one of them with agentId",
        );
      }
      if (request.agentId !== undefined) refuseOtherAgent({ agentIds }, request.agentId);
      const { stackBy } = request;
      if (stackBy && !(TEMPORAL_GROUPS as readonly string[]).includes(request.groupBy)) {
        throw new AppError(
          "INVALID_REQUEST",
          "stackBy splits periods: it needs groupBy day, week or month",
        );
      }
      const { from, to } = rangeOf(request.startDate, request.endDate);
      const rows = await deps.summaries.summarize(organizationId, {
        from: from!,
        to: to!,
        groupBy: request.groupBy,
        agentId: request.agentId,
        feature: request.feature,
        provider: request.provider,
        stackBy,
      });
      return {
        groupBy: request.groupBy,
        ...(stackBy ? { stackBy } : {}),
        startDate: request.startDate.text,
        endDate: request.endDate.text,
        data: rows.map((row) => ({
          groupKey: row.groupKey,
          ...(request.groupBy === "agent" ? { agentName: row.agentName } : {}),
          totalCreditsCharged: microToCredits(row.creditsChargedMicro),
          totalInputTokens: row.inputTokens,
          totalOutputTokens: row.outputTokens,
          eventCount: row.eventCount,
          ...(stackBy && row.stacks
            ? { stacks: row.stacks.map((stack) => stackView(stack, stackBy)) }
            : {}),
        })),
      };
    },
  };
}

export type ConsumptionService = ReturnType<typeof createConsumptionService>;
