import type { Db } from "../../db/client.ts";
import type { JobQueue } from "../../jobs/job-queue.ts";
import type { Mailer } from "../accounts/mailer.ts";
import type { PublishedEvent } from "../events/event-types.ts";
import type { HandoffRepo } from "./handoff-repo.ts";

/** The customer's words quoted in the mail, at most this long. */
const QUOTE_CHARS = 500;

/**
 * E-mail when a customer asks for a person (DESIGN.md §12): to the conversation's assignee, or to
 * the organization's members who can reply when nobody is assigned. Queued as a job in the
 * transaction of the request (so sent once it commits, retried while the mail server refuses),
 * and only with SMTP_URL. An operator taking over is not told about it: they are already there.
 */
export function createHandoffNotifier(deps: {
  handoff: Pick<HandoffRepo, "waitingNotice">;
  mailer: Pick<Mailer, "enabled" | "send">;
  jobs: Pick<JobQueue, "send">;
  publicUrl: string;
}) {
  return {
    async published(events: readonly PublishedEvent[], tx?: Db): Promise<void> {
      if (!deps.mailer.enabled) return;
      for (const event of events) {
        if (event.name !== "conversation.human_requested" || event.data.trigger === "operator") {
          continue;
        }
        await deps.jobs.send(
          "handoff.notify",
          {
            organizationId: event.organizationId,
            agentId: event.agentId,
            conversationId: event.conversationId,
          },
          tx ? { tx } : {},
        );
      }
    },

    /** The handoff.notify job: the mail, unless someone already replied. */
    async notify(job: { organizationId: string; agentId: string; conversationId: string }) {
      const notice = await deps.handoff.waitingNotice(
        job.organizationId,
        job.agentId,
        job.conversationId,
      );
      if (!notice || notice.recipients.length === 0) return;
      const link = `${deps.publicUrl}/console/conversations/${encodeURIComponent(
        job.conversationId,
      )}?agentId=${encodeURIComponent(job.agentId)}`;
      const quoted = notice.lastCustomerMessage
        ? `\nTheir last message:\n\n> ${notice.lastCustomerMessage
            .slice(0, QUOTE_CHARS)
            .replaceAll("\n", "\n> ")}\n`
        : "";
      await deps.mailer.send({
        to: notice.recipients.join(", "),
        subject: `A customer of ${notice.agentName} is waiting for a person`,
        text:
          `A customer talking to ${notice.agentName} asked for a person. ` +
          `The AI stays silent in this conversation until someone hands it back.\n${quoted}\n` +
          `Reply in the console: ${link}\n`,
      });
    },
  };
}
