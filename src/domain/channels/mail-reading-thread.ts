import { answerTasks } from "../../lib/thread-pool.ts";
import { type MailReadTask, readMail } from "./mail-reading.ts";

// The entry of a mail reading thread (mail-reader.ts starts it): one raw mail at a time, read
// with mailparser, and the ReadMail posted back.

answerTasks(({ raw, channelAddress }: MailReadTask) =>
  readMail(Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength), channelAddress),
);
