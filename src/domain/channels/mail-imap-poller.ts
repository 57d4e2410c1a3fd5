import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import type { ImapFlow } from "imapflow";
import { AppError } from "../../lib/errors.ts";
import { newId } from "../../lib/ids.ts";
import type { Logger } from "../../lib/logger.ts";
import { type PlatformContext, PlatformError } from "./channel-adapter.ts";
import type { ChannelInbound } from "./channel-inbound.ts";
import type { ChannelRepo, ChannelRow } from "./channel-repo.ts";
import type { OpenedChannel } from "./channel-service.ts";
import { type ImapSource, imapClientOf, imapFailureOf, imapSourceOf } from "./mail-imap-client.ts";
import type { ClaimedMailbox, MailMailboxRepo } from "./mail-mailbox-repo.ts";

/** How often a process looks for mailboxes nobody watches, and renews the ones it watches. */
const TICK_MS = 5_000;
/** A watcher's hold on its mailbox: another process takes it over this long after a death. */
const LEASE_MS = 60_000;
/** Looked at this often even when IDLE reported nothing (servers without IDLE, a lost event). */
const POLL_MS = 60_000;
/** Mailboxes one process watches at most (each is one IMAP connection). */
const MAX_MAILBOXES = 200;
/** Mails larger than this are left in the mailbox unread (the inbound URL takes 1 MB). */
const MAX_MAIL_BYTES = 25 * 1024 * 1024;
/** After a failure: a login refused waits longer than a server that did not answer. */
const RETRY_AFTER_MS = 60_000;
const RETRY_AFTER_REFUSAL_MS = 10 * 60_000;

export type MailPollerDeps = {
  mailboxes: MailMailboxRepo;
  channels: Pick<ChannelRepo, "findById" | "recordPlatformError">;
  open(row: ChannelRow): OpenedChannel;
  inbound: Pick<ChannelInbound, "accept">;
  platform: PlatformContext;
  logger: Logger;
};

/** What a mailbox's state is of: a changed URL or mailbox starts the reading over. */
const sourceKeyOf = (settings: OpenedChannel["settings"]) =>
  createHash("sha256")
    .update(`${settings.imapUrl ?? ""}\n${settings.imapMailbox ?? ""}`)
    .digest("hex");

class WatchEnded extends Error {
  override name = "WatchEnded";
}

/**
 * Reads the IMAP mailboxes of mail channels into the one inbound path. Each process that runs
 * background work takes the mailboxes nobody holds (a lease in `mail_mailboxes`), keeps one IMAP
 * connection per mailbox, waits in IDLE (NOOP polling where the server has no IDLE), and hands
 * each new message to the inbound path in UID order, recording the last UID after each: a
 * restart, or another process taking over, goes on from there, and a message handed over twice
 * is stored once (its Message-ID).
 */
export function createMailPoller(deps: MailPollerDeps) {
  const holder = newId();
  const watchers = new Map<string, { stop: AbortController; done: Promise<void>; nudge(): void }>();
  let timer: NodeJS.Timeout | null = null;
  let ticking: Promise<void> | null = null;
  let again = false;
  let stopped = true;

  async function load(mailbox: ClaimedMailbox): Promise<OpenedChannel | null> {
    const row = await deps.channels.findById(mailbox.organizationId, mailbox.channelId);
    if (!row?.enabled || row.type !== "mail") return null;
    return deps.open(row);
  }

  /** New messages since the last UID, or since the channel was created on a first reading. */
  async function newUids(client: ImapFlow, channel: OpenedChannel, lastUid: number) {
    const found =
      lastUid > 0
        ? await client.search({ uid: `${lastUid + 1}:*` }, { uid: true })
        : await client.search({ since: channel.row.createdAt }, { uid: true });
    return (found || []).filter((uid) => uid > lastUid).sort((a, b) => a - b);
  }

  async function handOver(channel: OpenedChannel, client: ImapFlow, uid: number) {
    const message = await client.fetchOne(String(uid), { size: true }, { uid: true });
    if (!message || (message.size ?? 0) > MAX_MAIL_BYTES) {
      deps.logger.warn({ channelId: channel.row.id, uid }, "a mail too large to read was skipped");
      return;
    }
    const full = await client.fetchOne(String(uid), { source: true }, { uid: true });
    if (full === false || !full.source) return;
    try {
      await deps.inbound.accept(channel, {
        method: "POST",
        headers: { "content-type": "message/rfc822" },
        query: {},
        rawBody: full.source,
      });
    } catch (error) {
      // A message the inbound path refuses (not a mail) is left behind, as a 400 would be.
      if (!(error instanceof AppError)) throw error;
    }
  }

  /** One mailbox, from connecting until its watch ends (stop, lease lost, channel changed). */
  async function watch(mailbox: ClaimedMailbox, signal: AbortSignal, woken: () => Promise<void>) {
    let channel = await load(mailbox);
    const source: ImapSource | null = channel ? imapSourceOf(channel.settings) : null;
    if (!channel || !source) return;
    const sourceKey = sourceKeyOf(channel.settings);
    const client = await imapClientOf(deps.platform, source);
    const closed = new Promise<void>((resolve) => client.once("close", () => resolve()));
    client.on("error", (error: Error) =>
      deps.logger.warn(
        { channelId: mailbox.channelId, code: (error as { code?: string }).code },
        "IMAP connection error",
      ),
    );
    try {
      await client.connect().catch((error: unknown) => {
        throw imapFailureOf(error);
      });
      const opened = await client.mailboxOpen(source.mailbox);
      const uidValidity = Number(opened.uidValidity);
      // Another mailbox, or the server renumbered it: UIDs start over (Message-IDs still dedup).
      let lastUid =
        mailbox.source === sourceKey && mailbox.uidValidity === uidValidity ? mailbox.lastUid : 0;
      if (channel.row.status === "error") {
        await deps.channels.recordPlatformError(channel.row.organizationId, channel.row.id, null);
      }
      let arrived = () => {};
      let announced = 0;
      client.on("exists", () => {
        announced += 1;
        arrived();
      });
      while (!signal.aborted) {
        const seen = announced;
        for (const uid of await newUids(client, channel, lastUid)) {
          if (signal.aborted) break;
          await handOver(channel, client, uid);
          lastUid = uid;
          const held = await deps.mailboxes.advance(
            channel.row.organizationId,
            channel.row.id,
            holder,
            { source: sourceKey, uidValidity, lastUid },
          );
          if (!held) throw new WatchEnded("The mailbox's lease was lost");
        }
        if (lastUid === 0) {
          await deps.mailboxes.advance(channel.row.organizationId, channel.row.id, holder, {
            source: sourceKey,
            uidValidity,
            lastUid,
          });
        }
        // Mail announced while the last ones were read is read before waiting again.
        const news = new Promise<void>((resolve) => {
          arrived = resolve;
          if (announced !== seen) resolve();
        });
        // IDLE until another command breaks it (the next search).
        void client.idle().catch(() => {});
        // Its own signal, ended below, so no timer or listener outlives the wait.
        const pause = new AbortController();
        await Promise.race([
          news,
          woken(),
          closed,
          sleep(POLL_MS, undefined, { signal: pause.signal }).catch(() => {}),
        ]);
        pause.abort();
        if (!client.usable) throw imapFailureOf(new Error("closed"));
        const current = await load(mailbox);
        if (!current || sourceKeyOf(current.settings) !== sourceKey) return;
        channel = current;
      }
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  function start(mailbox: ClaimedMailbox) {
    const stop = new AbortController();
    let wake = () => {};
    const woken = () =>
      new Promise<void>((resolve) => {
        wake = resolve;
        if (stop.signal.aborted) resolve();
      });
    stop.signal.addEventListener("abort", () => wake(), { once: true });
    const done = (async () => {
      let retryAt: Date | null = null;
      try {
        await watch(mailbox, stop.signal, woken);
      } catch (error) {
        retryAt = await failed(mailbox, error);
      } finally {
        watchers.delete(mailbox.channelId);
        await deps.mailboxes.release(mailbox.channelId, holder, retryAt).catch(() => {});
      }
    })();
    watchers.set(mailbox.channelId, { stop, done, nudge: () => wake() });
  }

  /** A failed watch: the channel says why when the login was refused; tried again later. */
  async function failed(mailbox: ClaimedMailbox, error: unknown): Promise<Date | null> {
    if (error instanceof WatchEnded) return null;
    const refused =
      (error instanceof PlatformError && error.options.credentialsRefused) ||
      error instanceof AppError;
    const reason = error instanceof Error ? error.message : "IMAP failed";
    deps.logger.warn(
      { channelId: mailbox.channelId, reason },
      "reading a mail channel's mailbox failed",
    );
    if (refused) {
      await deps.channels
        .recordPlatformError(mailbox.organizationId, mailbox.channelId, reason)
        .catch(() => {});
    }
    return new Date(Date.now() + (refused ? RETRY_AFTER_REFUSAL_MS : RETRY_AFTER_MS));
  }

  async function tick() {
    const held = [...watchers.keys()];
    const kept = await deps.mailboxes.renew(holder, held, LEASE_MS);
    for (const channelId of held) {
      if (!kept.has(channelId)) watchers.get(channelId)?.stop.abort();
    }
    if (stopped) return;
    const claimed = await deps.mailboxes.claim(holder, LEASE_MS, MAX_MAILBOXES - watchers.size);
    for (const mailbox of claimed) {
      if (!watchers.has(mailbox.channelId)) start(mailbox);
    }
  }

  /**
   * One tick at a time; asked for during one, another follows it (a channel created meanwhile
   * is claimed now, not at the next interval). A failed tick is logged; the next one tries again.
   */
  function runTick(): Promise<void> {
    if (ticking) {
      again = true;
      return ticking;
    }
    ticking = (async () => {
      do {
        again = false;
        await tick().catch((error: unknown) =>
          deps.logger.warn({ err: error }, "the mail poller's tick failed"),
        );
      } while (again && !stopped);
      ticking = null;
    })();
    return ticking;
  }

  return {
    /** Starts watching mailboxes (in the processes that run background work). */
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(() => void runTick(), TICK_MS);
      timer.unref();
      void runTick();
    },

    /** A mail channel was created or changed: look now rather than at the next tick. */
    wake() {
      if (stopped) return;
      for (const watcher of watchers.values()) watcher.nudge();
      void runTick();
    },

    /** Closes every IMAP connection and lets the mailboxes go, for another process to take. */
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await ticking;
      for (const watcher of watchers.values()) watcher.stop.abort();
      await Promise.all([...watchers.values()].map((watcher) => watcher.done));
    },
  };
}
