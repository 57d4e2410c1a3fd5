import type { Logger } from "../../lib/logger.ts";
import { createThreadPool, ownBytes, threadEntry } from "../../lib/thread-pool.ts";
import { InboundFormatError } from "./channel-adapter.ts";
import type { MailReadTask, ReadMail } from "./mail-reading.ts";

/** One thread reads a 20 KB mail in about 1 ms: hundreds a second, beside the service's own. */
const MAIL_READER_THREADS = 1;
/** The heap of one thread; a mail is at most 1 MB (the inbound body limit) and needs far less. */
const MAIL_READER_MEMORY_MB = 256;
/** A mail of 1 MB reads in tens of milliseconds; one that takes this long is refused. */
const MAIL_READ_TIMEOUT_MS = 10_000;
/**
 * How long the thread waits for the next mail. Mail comes when it comes; a thread started again
 * delays that mail's acknowledgement by the time mailparser takes to load (0.3 s).
 */
const MAIL_READER_IDLE_MS = 15 * 60_000;

/**
 * Reads raw mails (`readMail`) in a worker thread. MIME parsing costs about 1 ms of CPU per 20 KB
 * mail, in steps spread over several turns of the event loop: on the service's thread it delayed
 * every request arriving meanwhile, and a hostile mail could take the service's heap. A mail that
 * runs out of its thread's heap or time is refused as unreadable (400).
 */
export type MailReader = {
  read(raw: Uint8Array, channelAddress: string): Promise<ReadMail>;
  /** Starts the thread ahead of the first mail: a process with mail channels, a new channel. */
  warm(): void;
  /** Stops the threads; mail still waiting or being read is refused. */
  close(): Promise<void>;
};

/** An error thrown by the reading is the mail's doing, unless it is a plain programming error. */
function errorFrom({ name, message }: { name: string; message: string }): Error {
  if (name !== "TypeError" && name !== "ReferenceError") {
    return new InboundFormatError(`The message could not be read: ${message}`);
  }
  const error = new Error(message);
  error.name = name;
  return error;
}

export function createMailReader(logger?: Logger): MailReader {
  const pool = createThreadPool<MailReadTask>({
    entry: threadEntry(import.meta.url, "mail-reading-thread"),
    threads: MAIL_READER_THREADS,
    maxMemoryMb: MAIL_READER_MEMORY_MB,
    idleMs: MAIL_READER_IDLE_MS,
    taskName: "reading a mail",
    logger,
    failures: {
      outOfMemory: (maxMemoryMb) =>
        new InboundFormatError(`The message needs more than ${maxMemoryMb} MB of memory to read`),
      outOfTime: (timeoutMs) =>
        new InboundFormatError(
          `Reading the message took longer than ${Math.round(timeoutMs / 1000)} s; giving up`,
        ),
      stopped: () => new InboundFormatError("The message could not be read: its reader stopped"),
      closed: () => new Error("The mail reader is closed"),
      fromThread: errorFrom,
    },
  });
  return {
    read(raw, channelAddress) {
      // A request body may share a pooled buffer: the thread gets a copy.
      const bytes = ownBytes(raw);
      const task: MailReadTask = { raw: bytes, channelAddress };
      return pool.run(task, {
        timeoutMs: MAIL_READ_TIMEOUT_MS,
        transfer: [bytes.buffer as ArrayBuffer],
      });
    },
    warm: () => pool.warm(),
    close: () => pool.close(),
  };
}
