import { sql } from "drizzle-orm";
import { describe, expect } from "vitest";
import { dovecotInstalled, type ImapServer, startImapServer } from "../fakes/imap-server.ts";
import { startTestApp, type TestApp } from "../harness/app.ts";
import {
  type ChannelBody,
  chatRequests,
  conversationsOf,
  createChannel,
  eventually,
} from "./channel-helpers.ts";
import { composeMail, mailTest, SUPPORT } from "./mail-helpers.ts";

// The IMAP server is Debian's Dovecot (.ci/run installs dovecot-imapd); a machine without it
// skips these tests, CI never does.
const runs = dovecotInstalled || process.env.CI === "true";

const MAILBOX_USER = "support@shop.example";
const MAILBOX_PASSWORD = "s3cret-imap-password";

const test = mailTest()
  // biome-ignore lint/correctness/noEmptyPattern: vitest reads a fixture's dependencies from it
  .extend("imap", { scope: "file" }, async ({}, { onCleanup }) => {
    const imap = await startImapServer({ [MAILBOX_USER]: MAILBOX_PASSWORD });
    onCleanup(() => imap.close());
    return imap;
  });
// The model's requests add up over the file: a test counts those of the tests before it.
test.override("fakeRequestsCleared", () => true);

let channel: ChannelBody;

let sequence = 0;
const newId = () => {
  sequence += 1;
  return `imap${sequence}.${Date.now()}@customer.example`;
};
const deliver = async (imap: ImapServer, text: string, from = "ines@customer.example") =>
  imap.deliver(MAILBOX_USER, await composeMail({ messageId: newId(), from, subject: text, text }));

async function mailboxState(app: TestApp, channelId: string) {
  const result = await app.database.db.execute(
    sql`select uid_validity, last_uid, lease_holder from mail_mailboxes where channel_id = ${channelId}`,
  );
  return (result as unknown as { rows: Array<Record<string, unknown>> }).rows[0];
}

describe.skipIf(!runs)("a mail channel reading an IMAP mailbox (Dovecot)", () => {
  test("refuses a login the server refuses (400, nothing stored)", async ({
    app,
    org,
    agent,
    imap,
  }) => {
    const response = await app.api.inject({
      method: "POST",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
      payload: {
        type: "mail",
        config: { address: SUPPORT, imap: { url: imap.urlOf(MAILBOX_USER, "wrong-password") } },
      },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().error).toContain("IMAP: the server refused the login");
    const listed = await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
    });
    expect(listed.json().data).toEqual([]);
  });

  test("is created with the IMAP URL masked, and answers what arrives in the mailbox", async ({
    app,
    org,
    agent,
    smtp,
    imap,
  }) => {
    channel = await createChannel(
      { app, org, agent },
      {
        type: "mail",
        config: { address: SUPPORT, imap: { url: imap.urlOf(MAILBOX_USER) } },
      },
    );
    expect(channel.config).toEqual({
      address: SUPPORT,
      imap: { url: expect.stringMatching(/^••••/), mailbox: "INBOX" },
    });
    expect(JSON.stringify(channel)).not.toContain(MAILBOX_PASSWORD);
    await deliver(imap, "Do you repair bikes?");
    const answer = await smtp.nextMailTo("ines@customer.example");
    expect(answer.subject).toBe("Re: Do you repair bikes?");
    expect(answer.from).toBe(SUPPORT);
  });

  test("records the mailbox's UIDVALIDITY and last UID, and reads each message once", async ({
    app,
    fake,
    smtp,
    imap,
  }) => {
    await deliver(imap, "Second question", "joan@customer.example");
    await smtp.nextMailTo("joan@customer.example");
    await eventually(async () =>
      expect(await mailboxState(app, channel.id)).toMatchObject({ last_uid: expect.anything() }),
    );
    const state = await mailboxState(app, channel.id);
    expect(Number(state!.last_uid)).toBe(2);
    expect(Number(state!.uid_validity)).toBeGreaterThan(0);
    expect(state!.lease_holder).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(chatRequests(fake)).toHaveLength(2);
  });

  test("stops reading a disabled channel's mailbox, and reads what waited once enabled", async ({
    app,
    org,
    smtp,
    imap,
  }) => {
    const patch = (enabled: boolean) =>
      app.api.inject({
        method: "PATCH",
        url: `/api/channels/${channel.id}`,
        headers: org.auth,
        payload: { enabled },
      });
    expect((await patch(false)).statusCode).toBe(200);
    await eventually(async () =>
      expect((await mailboxState(app, channel.id))!.lease_holder).toBeNull(),
    );
    await deliver(imap, "Written while the channel was off", "lea@customer.example");
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    expect(smtp.received.filter((mail) => mail.to.includes("lea@customer.example"))).toEqual([]);
    expect((await patch(true)).statusCode).toBe(200);
    const answer = await smtp.nextMailTo("lea@customer.example");
    expect(answer.subject).toBe("Re: Written while the channel was off");
  });

  test("goes on from the last UID in another process, answering nothing twice", async ({
    app,
    org,
    agent,
    fake,
    smtp,
    imap,
  }) => {
    const database = app.database;
    const conversationsBefore = (await conversationsOf({ app, org, agent })).data.length;
    // This process stops reading mailboxes (as when it shuts down): its lease is let go.
    await app.runtime.services.mailPoller.stop();
    // Mail arriving while no process reads the mailbox.
    await deliver(imap, "Sent while you were down", "kim@customer.example");
    const restarted = await startTestApp({
      database,
      env: {
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: fake.url,
        CHANNEL_BATCH_DELAY_MS: "300",
        PUBLIC_URL: "https://agents.example.com",
        SMTP_URL: smtp.url,
      },
    });
    try {
      await smtp.nextMailTo("kim@customer.example");
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(
        smtp.received.filter((mail) => mail.to.includes("ines@customer.example")),
      ).toHaveLength(1);
      expect(
        smtp.received.filter((mail) => mail.to.includes("joan@customer.example")),
      ).toHaveLength(1);
      expect(Number((await mailboxState(restarted, channel.id))!.last_uid)).toBe(4);
      const list = await restarted.api.inject({
        method: "GET",
        url: `/api/conversations?agentId=${agent.id}`,
        headers: org.auth,
      });
      expect(list.json().data).toHaveLength(conversationsBefore + 1);
    } finally {
      await restarted.runtime.close();
    }
  });
});
