import pg from "pg";

/** What a listener of a notification channel is told. */
export type ChannelEvents = {
  /** A notification on the channel, with its payload. */
  onNotify(payload: string): void;
  /** Listening has begun or resumed: notifications from now on arrive. */
  onListening(): void;
  /** The listening connection is gone: notifications are missed until the next onListening. */
  onLost(): void;
};

/** The events of each channel listened to, by channel name. */
export type Channels = Record<string, ChannelEvents>;

export type Subscription = { close(): Promise<void> };

const RECONNECT_MIN_MS = 500;
const RECONNECT_MAX_MS = 30_000;
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * LISTENs on PostgreSQL on one connection of its own for all the channels, outside the pool (a
 * pooled connection would be handed to queries and recycled). A lost connection is reported to
 * every channel and reopened with backoff. The first attempt is awaited, but a failure does not
 * throw: the listener runs without notifications until a reconnect succeeds.
 */
export async function listenOnPostgres(
  connectionString: string,
  channels: Channels,
): Promise<Subscription> {
  const each = (call: (events: ChannelEvents) => void) => Object.values(channels).forEach(call);
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let delayMs = RECONNECT_MIN_MS;

  async function connect(): Promise<void> {
    const current = new pg.Client({
      connectionString,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    client = current;
    let reported = false;
    const lost = () => {
      if (reported || client !== current) return;
      reported = true;
      client = null;
      each((events) => events.onLost());
      current.end().catch(() => {});
      if (!closed) {
        retry = setTimeout(() => void connect(), delayMs);
        retry.unref();
        delayMs = Math.min(delayMs * 2, RECONNECT_MAX_MS);
      }
    };
    current.on("error", lost);
    current.on("end", lost);
    current.on("notification", (message) => {
      channels[message.channel]?.onNotify(message.payload ?? "");
    });
    try {
      await current.connect();
      for (const channel of Object.keys(channels)) {
        await current.query(`listen ${current.escapeIdentifier(channel)}`);
      }
    } catch {
      lost();
      return;
    }
    if (client !== current) return;
    delayMs = RECONNECT_MIN_MS;
    each((events) => events.onListening());
  }

  await connect();
  return {
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
