import { useEffect, useRef, useState } from "react";
import { basePath } from "../../api/client.ts";

/** The organization's events on GET /api/events (docs/handoff.md, _Live events_). */
const EVENT_NAMES = ["message.created", "conversation.updated", "conversation.human_requested"];

/** What every event carries first: which conversation it is about. */
export type LiveEvent = { name: string; conversationId: string; agentId: string };

type LiveState = "connecting" | "live" | "offline";

/**
 * Follows the organization's live events while the page is open. `onEvent` is called for each
 * event, and with `null` after a reconnection (events older than the stream's hour of backlog
 * may be missing then, so what is shown should be read again).
 */
export function useLiveEvents(onEvent: (event: LiveEvent | null) => void) {
  const handler = useRef(onEvent);
  handler.current = onEvent;
  const [state, setState] = useState<LiveState>("connecting");
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    void attempt;
    // Same origin: the session cookie goes with it; EventSource resumes with Last-Event-ID itself.
    const source = new EventSource(`${basePath}/api/events`);
    let opened = false;
    setState("connecting");
    source.onopen = () => {
      setState("live");
      if (opened) handler.current(null);
      opened = true;
    };
    source.onerror = () => {
      // CLOSED: the service refused the stream (signed out, say); the browser will not retry.
      setState(source.readyState === EventSource.CLOSED ? "offline" : "connecting");
    };
    const listener = (message: MessageEvent<string>) => {
      try {
        const data = JSON.parse(message.data) as { conversationId?: unknown; agentId?: unknown };
        if (typeof data.conversationId !== "string" || typeof data.agentId !== "string") return;
        handler.current({
          name: message.type,
          conversationId: data.conversationId,
          agentId: data.agentId,
        });
      } catch {
        // A frame that is not JSON is no event of ours.
      }
    };
    for (const name of EVENT_NAMES) source.addEventListener(name, listener);
    return () => source.close();
  }, [attempt]);

  return { state, reconnect: () => setAttempt((count) => count + 1) };
}

/** Calls `action` once, `delayMs` after the last of a burst of calls of the returned function. */
export function useDebounced(action: () => void, delayMs: number) {
  const latest = useRef(action);
  latest.current = action;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = null;
      latest.current();
    }, delayMs);
  };
}

const STATE_TEXT: Record<LiveState, string> = {
  connecting: "Connecting…",
  live: "Live",
  offline: "Offline",
};

/** Whether the page follows the events: a dot and a word, and a way back when it stopped. */
export function LiveIndicator({ state, reconnect }: { state: LiveState; reconnect: () => void }) {
  return (
    <span className="live-indicator">
      <span className={`live-dot live-dot-${state}`} aria-hidden="true" />
      <span role="status">
        <span className="visually-hidden">Live updates: </span>
        <span>{STATE_TEXT[state]}</span>
      </span>
      {state === "offline" && (
        <button type="button" className="button button-quiet" onClick={reconnect}>
          Reconnect
        </button>
      )}
    </span>
  );
}
