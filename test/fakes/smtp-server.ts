import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A message the fake server accepted, with its text body decoded. */
export type ReceivedMail = {
  /** The envelope's recipients, lower-cased. */
  to: string[];
  /** The envelope's sender (MAIL FROM), lower-cased. */
  from: string;
  subject: string;
  text: string;
  raw: string;
  /** A header of the message as sent (unfolded; the first of its name), or "" when absent. */
  header(name: string): string;
};

export type FakeSmtp = {
  /** The SMTP_URL that reaches it. */
  url: string;
  received: ReceivedMail[];
  /** The next message to this address not yet handed out (waits for it). */
  nextMailTo(address: string): Promise<ReceivedMail>;
  /** Refuses messages to this address at RCPT TO, as a mail server that knows no such box. */
  refuseRecipient(address: string): void;
  /** Called with every message accepted (a relay to another mailbox, in a test). */
  onMail(listener: (mail: ReceivedMail) => void): void;
  close(): Promise<void>;
};

/** Decodes the one text part nodemailer sends for `text` mail (7bit, quoted-printable or base64). */
function decodeBody(headers: string, body: string): string {
  const encoding = /^content-transfer-encoding:\s*(\S+)/im.exec(headers)?.[1]?.toLowerCase();
  if (encoding === "base64")
    return Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8");
  if (encoding === "quoted-printable") {
    const bytes = body
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      );
    return Buffer.from(bytes, "latin1").toString("utf8");
  }
  return body;
}

/** Unfolds a header (continuation lines) and decodes RFC 2047 words of UTF-8. */
function header(headers: string, name: string): string {
  const unfolded = headers.replace(/\r?\n[ \t]+/g, " ");
  const value = new RegExp(`^${name}:\\s*(.*)$`, "im").exec(unfolded)?.[1] ?? "";
  return value.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_match, kind: string, text: string) =>
    kind.toLowerCase() === "b"
      ? Buffer.from(text, "base64").toString("utf8")
      : decodeBody("content-transfer-encoding: quoted-printable", text.replace(/_/g, " ")),
  );
}

function parse(raw: string, to: string[], from: string): ReceivedMail {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = raw.slice(0, split);
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  return {
    to,
    from,
    subject: header(headers, "subject"),
    text: decodeBody(headers, body),
    raw,
    header: (name) => header(headers, name),
  };
}

/**
 * A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps every message: what
 * the service's mailer (nodemailer) sends goes over the wire as it would to a real one.
 */
export async function startFakeSmtp(): Promise<FakeSmtp> {
  const received: ReceivedMail[] = [];
  const handedOut = new Set<ReceivedMail>();
  const refused = new Set<string>();
  const waiters: Array<{ address: string; resolve: (mail: ReceivedMail) => void }> = [];
  const listeners: Array<(mail: ReceivedMail) => void> = [];

  const serve = () => {
    for (const waiter of [...waiters]) {
      const mail = received.find((m) => !handedOut.has(m) && m.to.includes(waiter.address));
      if (!mail) continue;
      handedOut.add(mail);
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(mail);
    }
  };

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const to = session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase());
        const mailFrom = session.envelope.mailFrom;
        const from = mailFrom ? mailFrom.address.toLowerCase() : "";
        const mail = parse(Buffer.concat(chunks).toString("utf8"), to, from);
        received.push(mail);
        for (const listener of listeners) listener(mail);
        serve();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;

  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    nextMailTo(address) {
      return new Promise((resolve) => {
        waiters.push({ address: address.toLowerCase(), resolve });
        serve();
      });
    },
    refuseRecipient: (address) => refused.add(address.toLowerCase()),
    onMail: (listener) => listeners.push(listener),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: ReceivedMail, prefix: string): string {
  const link = mail.text.split(/\s+/).find((word) => word.startsWith(prefix));
  if (!link) throw new Error(`no link starting ${prefix} in: ${mail.text}`);
  return link;
}
