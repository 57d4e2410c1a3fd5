import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { api, unwrap } from "../../api/client.ts";
import { useSession } from "../../app/session.tsx";
import { Field, FormError } from "../../ui/forms.tsx";
import { channelLabel, personLabel } from "./conversation-format.tsx";
import {
  type ConversationChange,
  type ConversationDetail,
  type Message,
  updateCachedConversation,
  useAnswerers,
} from "./conversations-api.ts";

/** The path and query of the conversation's PATCH and reply. */
const paramsOf = (conversation: ConversationDetail) => ({
  path: { id: conversation.id },
  query: { agentId: conversation.agentId },
});

/** What each change says once it is done (the state itself shows in the details). */
function doneText(change: ConversationChange, myId: string): string {
  if (change.aiEnabled === false && change.assigneeId === myId) {
    return "You took over: the AI stays silent and the conversation is assigned to you.";
  }
  if (change.aiEnabled === true) return "The AI answers this conversation again.";
  if (change.status === "RESOLVED") return "The conversation is resolved.";
  if (change.assigneeId === null) return "Nobody is assigned any more.";
  return "The assignee changed.";
}

/**
 * Take over, hand back, resolve and assign (PATCH /api/conversations/{id}): members and above;
 * the caller shows a viewer none of it.
 */
export function HandoffActions({ conversation }: { conversation: ConversationDetail }) {
  const session = useSession();
  const myId = session.view.user.id;
  const queryClient = useQueryClient();
  const [wantsMembers, setWantsMembers] = useState(false);
  const members = useAnswerers(session.organizationId, wantsMembers);

  const change = useMutation({
    mutationFn: (body: ConversationChange) =>
      unwrap(api.PATCH("/api/conversations/{id}", { params: paramsOf(conversation), body })),
    onSuccess: (updated) =>
      updateCachedConversation(queryClient, conversation, (old) => ({ ...old, ...updated })),
  });

  const { aiEnabled, status, assignee } = conversation;
  const mine = assignee?.id === myId;
  // The people to choose from: everyone who can answer once they are read, and meanwhile
  // whoever is assigned now and the user.
  const people = new Map<string, string>();
  if (assignee) people.set(assignee.id, personLabel(assignee));
  people.set(myId, `${session.view.user.name || session.view.user.email} (me)`);
  for (const member of members.data ?? []) {
    people.set(
      member.userId,
      member.userId === myId ? people.get(myId)! : member.name || member.email || member.userId,
    );
  }

  return (
    <div className="handoff-actions">
      <div className="button-row">
        {(aiEnabled || !mine) && (
          <button
            type="button"
            className="button button-primary"
            disabled={change.isPending}
            onClick={() => change.mutate({ aiEnabled: false, assigneeId: myId })}
          >
            Take over
          </button>
        )}
        {!aiEnabled && (
          <button
            type="button"
            className="button"
            disabled={change.isPending}
            onClick={() => change.mutate({ aiEnabled: true })}
          >
            Hand back to AI
          </button>
        )}
        {status !== "RESOLVED" && (
          <button
            type="button"
            className="button"
            disabled={change.isPending}
            onClick={() => change.mutate({ status: "RESOLVED" })}
          >
            Resolve
          </button>
        )}
      </div>
      <div
        className="field"
        onPointerEnter={() => setWantsMembers(true)}
        onFocusCapture={() => setWantsMembers(true)}
      >
        <label htmlFor="conversation-assignee">Assignee</label>
        <select
          id="conversation-assignee"
          value={assignee?.id ?? ""}
          disabled={change.isPending}
          aria-describedby="conversation-assignee-hint"
          onChange={(event) => change.mutate({ assigneeId: event.target.value || null })}
        >
          <option value="">Nobody</option>
          {[...people].map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
        <p className="field-hint" id="conversation-assignee-hint">
          {members.isFetching
            ? "Loading the members…"
            : members.isError
              ? "The members could not be read; you can still assign yourself."
              : "Assigning does not turn the AI off; Take over does both."}
        </p>
      </div>
      <FormError error={change.error} />
      <p role="status" className="action-status">
        {change.isSuccess && change.variables ? doneText(change.variables, myId) : ""}
      </p>
    </div>
  );
}

/** What became of a reply, from the answer of POST /api/conversations/{id}/messages. */
function replyText(reply: Message, channel: string, aiWasOn: boolean): string {
  const ai = aiWasOn ? " The AI is now off in this conversation." : "";
  if (!reply.delivery) return `Your reply was added to the conversation.${ai}`;
  if (reply.delivery.status === "failed") {
    return `Your reply could not be sent through ${channelLabel(channel)}: ${reply.delivery.error ?? "no reason given"}.`;
  }
  return `Your reply is ${reply.delivery.status === "queued" ? "queued for delivery" : reply.delivery.status} through ${channelLabel(channel)}.${ai}`;
}

/** The operator's reply (POST /api/conversations/{id}/messages), delivered through the channel. */
export function ReplyForm({ conversation }: { conversation: ConversationDetail }) {
  const queryClient = useQueryClient();
  const [text, setText] = useState("");
  const [aiWasOn, setAiWasOn] = useState(false);
  const send = useMutation({
    mutationFn: (body: { text: string }) =>
      unwrap(
        api.POST("/api/conversations/{id}/messages", { params: paramsOf(conversation), body }),
      ),
    onSuccess: (reply) => {
      setText("");
      updateCachedConversation(queryClient, conversation, (old) =>
        old.messages.some((message) => message.id === reply.id)
          ? old
          : { ...old, aiEnabled: false, messages: [...old.messages, reply] },
      );
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setAiWasOn(conversation.aiEnabled);
    send.mutate({ text });
  };
  return (
    <form className="reply-form" onSubmit={submit}>
      <Field
        label="Reply"
        hint={`Goes to the customer through the conversation's channel (${channelLabel(conversation.channel)}). Replying turns the AI off.`}
      >
        {(props) => (
          <textarea
            {...props}
            value={text}
            maxLength={4_000}
            onChange={(event) => setText(event.target.value)}
          />
        )}
      </Field>
      <FormError error={send.error} />
      <div className="form-actions">
        <button
          type="submit"
          className="button button-primary"
          disabled={send.isPending || !text.trim()}
        >
          {send.isPending ? "Sending…" : "Send reply"}
        </button>
        <p role="status" className="action-status">
          {send.isSuccess && send.data ? replyText(send.data, conversation.channel, aiWasOn) : ""}
        </p>
      </div>
    </form>
  );
}
