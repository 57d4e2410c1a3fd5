import { simpleParser } from "mailparser";
import { describe, expect } from "vitest";
import type { FakeSmtp, ReceivedMail } from "../fakes/smtp-server.ts";
import { createAgent } from "../harness/agents.ts";
import { startTestApp } from "../harness/app.ts";
import { buildPdf } from "../ingestion/loaders/pdf-fixture.ts";
import {
  type ChannelBody,
  type ChannelFixtures,
  chatRequests,
  conversationsOf,
  createChannel,
  eventually,
  startChannelTestApp,
} from "./channel-helpers.ts";
import { composeMail, idsOf, mailTest, postMail, SUPPORT } from "./mail-helpers.ts";

const CUSTOMER = "zoe@customer.example";

/**
 * `mailTest` with
 * - `production`: an app in production mode on the same SMTP server, with an organization and an
 *   agent, started once per file when a test asks for it.
 */
const test = mailTest().extend("production", { scope: "file" }, async ({ smtp }, { onCleanup }) => {
  const app = await startTestApp({ env: { NODE_ENV: "production", SMTP_URL: smtp.url } });
  onCleanup(() => app.close());
  const org = await app.createOrganization("Prod Co");
  return { app, org, agentId: (await createAgent(app, org)).id };
});

let channel: ChannelBody;
let token: string;
test.beforeAll(async ({ app, org, agent }) => {
  const created = (await createChannel(
    { app, org, agent },
    { type: "mail", name: "Support inbox", config: { address: "Support@Shop.example" } },
  )) as ChannelBody & { inboundToken: string };
  channel = created;
  token = created.inboundToken;
});

let sequence = 0;
const newId = (what = "m") => {
  sequence += 1;
  return `${what}${sequence}.${Date.now()}@customer.example`;
};
const mailsTo = (smtp: FakeSmtp, address: string) =>
  smtp.received.filter((mail) => mail.to.includes(address));
const nothingMoreHappens = () => new Promise((resolve) => setTimeout(resolve, 1_000));

async function detailOfThread({ app, org, agent }: ChannelFixtures, threadKey: string) {
  const row = (await conversationsOf({ app, org, agent })).data.find(
    (c) => c.channelExternalId === threadKey,
  );
  if (!row) return undefined;
  const response = await app.api.inject({
    method: "GET",
    url: `/api/conversations/${row.id}?agentId=${agent.id}`,
    headers: org.auth,
  });
  return response.json() as {
    id: string;
    channel: string;
    contact: Record<string, unknown> | null;
    messages: Array<{
      from: string;
      text: string;
      attachments: Array<{ url: string }>;
      delivery?: { status: string; platformMessageId: string | null };
    }>;
  };
}

describe("a mail channel", () => {
  test("is created with its inbound token shown once, and never again", async ({
    app,
    org,
    agent,
  }) => {
    expect(channel).toMatchObject({
      type: "mail",
      name: "Support inbox",
      status: "active",
      webhookUrl: `https://agents.example.com/channels/mail/${channel.id}`,
      config: { address: SUPPORT },
    });
    expect(token).toMatch(/^[\w-]{40,}$/);
    const shown = await app.api.inject({
      method: "GET",
      url: `/api/channels/${channel.id}`,
      headers: org.auth,
    });
    expect(shown.json()).not.toHaveProperty("inboundToken");
    expect(shown.body).not.toContain(token);
    const listed = await app.api.inject({
      method: "GET",
      url: `/api/agents/${agent.id}/channels`,
      headers: org.auth,
    });
    expect(listed.body).not.toContain(token);
  });

  test.for<[string, Record<string, unknown>, string]>([
    ["no address", {}, "body.config.address"],
    ["an address that is not one", { address: "support" }, "body.config.address"],
    [
      "an IMAP URL of another scheme",
      { address: SUPPORT, imap: { url: "https://x.example" } },
      "body.config.imap.url",
    ],
    [
      "an IMAP URL without a password",
      { address: SUPPORT, imap: { url: "imaps://bob@imap.example" } },
      "body.config.imap.url",
    ],
  ])(
    "refuses a config with %s (400, nothing stored)",
    async ([, config, path], { app, org, agent }) => {
      const response = await app.api.inject({
        method: "POST",
        url: `/api/agents/${agent.id}/channels`,
        headers: org.auth,
        payload: { type: "mail", config },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().details).toEqual(
        expect.arrayContaining([expect.objectContaining({ path })]),
      );
    },
  );

  test("refuses a bad, missing or other channel's token with 401 and stores nothing", async ({
    app,
    org,
    agent,
    fake,
  }) => {
    const other = (await createChannel(
      { app, org, agent },
      {
        type: "mail",
        config: { address: "sales@shop.example" },
      },
    )) as ChannelBody & { inboundToken: string };
    const raw = await composeMail({ messageId: newId("refused"), text: "Is this stored?" });
    for (const given of ["not-the-token", null, other.inboundToken, `${token}x`]) {
      expect((await postMail(app, channel, raw, given)).statusCode).toBe(401);
    }
    const basic = await app.api.inject({
      method: "POST",
      url: new URL(channel.webhookUrl).pathname,
      headers: { "content-type": "message/rfc822", authorization: `Basic ${token}` },
      payload: raw,
    });
    expect(basic.statusCode).toBe(401);
    await nothingMoreHappens();
    expect((await conversationsOf({ app, org, agent })).data).toHaveLength(0);
    expect(chatRequests(fake)).toHaveLength(0);
  });

  test("answers 404 for an unknown or disabled channel, 400 for what is not a mail, 413 past 1 MB", async ({
    app,
    org,
    agent,
  }) => {
    const raw = await composeMail({ messageId: newId(), text: "Hello?" });
    const unknown = await app.api.inject({
      method: "POST",
      url: "/channels/mail/no-such-channel",
      headers: { "content-type": "message/rfc822", authorization: `Bearer ${token}` },
      payload: raw,
    });
    expect(unknown.statusCode).toBe(404);
    expect((await postMail(app, channel, raw, token, "application/json")).statusCode).toBe(400);
    expect((await postMail(app, channel, "", token)).statusCode).toBe(400);
    expect((await postMail(app, channel, "just some words\r\n", token)).statusCode).toBe(400);
    const huge = await composeMail({ messageId: newId(), text: "x".repeat(1_100_000) });
    expect((await postMail(app, channel, huge, token)).statusCode).toBe(413);
    const disabled = (await createChannel(
      { app, org, agent },
      {
        type: "mail",
        config: { address: "off@shop.example" },
      },
    )) as ChannelBody & { inboundToken: string };
    await app.api.inject({
      method: "PATCH",
      url: `/api/channels/${disabled.id}`,
      headers: org.auth,
      payload: { enabled: false },
    });
    expect((await postMail(app, disabled, raw, disabled.inboundToken)).statusCode).toBe(404);
  });

  test("answers a mail once by SMTP, threaded, with a Re: subject, text and HTML", async ({
    app,
    org,
    agent,
    fake,
    smtp,
  }) => {
    fake.script({ text: "Your lamp left our warehouse today.\n\nIt arrives on Friday." });
    const messageId = newId();
    const raw = await composeMail({
      messageId,
      subject: "Where is my lamp?",
      text: "Hello,\nI ordered a lamp last week.\n\n-- \nZoë Núñez\nCEO, Customer Inc.",
    });
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await postMail(app, channel, raw, token);
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ ok: true });
    }
    const mail = await smtp.nextMailTo(CUSTOMER);
    await nothingMoreHappens();
    expect(mailsTo(smtp, CUSTOMER)).toHaveLength(1);
    expect(chatRequests(fake)).toHaveLength(1);
    expect(mail.from).toBe(SUPPORT);
    expect(mail.subject).toBe("Re: Where is my lamp?");
    expect(idsOf(mail.header("in-reply-to"))).toEqual([messageId]);
    expect(idsOf(mail.header("references"))).toEqual([messageId]);
    expect(mail.header("auto-submitted")).toBe("auto-replied");
    const parsed = await simpleParser(mail.raw);
    expect(parsed.text?.trim()).toBe(
      "Your lamp left our warehouse today.\n\nIt arrives on Friday.",
    );
    expect(parsed.html).toContain("<p>Your lamp left our warehouse today.</p>");
    // The model read the new text: the subject and the body, not the signature.
    const sent = JSON.stringify(chatRequests(fake)[0]!.body);
    expect(sent).toContain("I ordered a lamp last week.");
    expect(sent).not.toContain("CEO, Customer Inc.");
    const detail = await detailOfThread({ app, org, agent }, messageId);
    expect(detail).toMatchObject({
      channel: "mail",
      contact: { email: CUSTOMER, firstName: "Zoë", lastName: "Núñez" },
    });
    expect(detail!.messages.map((message) => message.from)).toEqual(["human", "agent"]);
    expect(detail!.messages[0]!.text).toBe(
      "Where is my lamp?\n\nHello,\nI ordered a lamp last week.",
    );
    expect(detail!.messages[1]!.delivery).toMatchObject({
      status: "sent",
      platformMessageId: idsOf(mail.header("message-id"))[0],
    });
  });

  test("keeps one conversation across three replies, each answer threaded on the latest mail", async ({
    app,
    org,
    agent,
    smtp,
  }) => {
    const first = newId("thread");
    await postMail(
      app,
      channel,
      await composeMail({ messageId: first, subject: "Order 7", text: "Where is order 7?" }),
      token,
    );
    const answers: ReceivedMail[] = [await smtp.nextMailTo(CUSTOMER)];
    let chain = [first];
    for (const text of ["It is not here yet.", "Still nothing.", "Got it, thanks!"]) {
      const previousAnswer = idsOf(answers.at(-1)!.header("message-id"))[0]!;
      chain = [...chain, previousAnswer];
      const id = newId("thread");
      const raw = await composeMail({
        messageId: id,
        subject: "RE: Re: Order 7",
        inReplyTo: previousAnswer,
        references: chain,
        text: `${text}\n\nOn Mon, 1 Dec 2026 at 10:00, Support <${SUPPORT}> wrote:\n> Earlier answer`,
      });
      expect((await postMail(app, channel, raw, token)).statusCode).toBe(200);
      const answer = await smtp.nextMailTo(CUSTOMER);
      expect(answer.subject).toBe("Re: Order 7");
      expect(idsOf(answer.header("in-reply-to"))).toEqual([id]);
      expect(idsOf(answer.header("references"))).toEqual([...chain, id]);
      chain = [...chain, id];
      answers.push(answer);
    }
    const detail = await detailOfThread({ app, org, agent }, first);
    expect(
      detail!.messages.filter((message) => message.from === "human").map((m) => m.text),
    ).toEqual([
      "Order 7\n\nWhere is order 7?",
      "It is not here yet.",
      "Still nothing.",
      "Got it, thanks!",
    ]);
    expect(detail!.messages.filter((message) => message.from === "agent")).toHaveLength(4);
  });

  test("answers a burst of one thread as one turn, in the order written", async ({
    app,
    org,
    agent,
    fake,
    smtp,
  }) => {
    const first = newId("burst");
    const base = Date.now();
    const mails = await Promise.all(
      ["First, the lamp.", "Second, the bulb.", "Third, the cable."].map((text, index) =>
        composeMail({
          messageId: index === 0 ? first : newId("burst"),
          ...(index === 0 ? {} : { inReplyTo: first, references: [first] }),
          subject: "Three things",
          text,
          date: new Date(base - 3_000 + index * 1_000),
        }),
      ),
    );
    for (const raw of [...mails].reverse()) {
      expect((await postMail(app, channel, raw, token)).statusCode).toBe(200);
    }
    await smtp.nextMailTo(CUSTOMER);
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(1);
    const detail = await detailOfThread({ app, org, agent }, first);
    expect(detail!.messages.map((message) => message.text)).toEqual([
      "Three things\n\nFirst, the lamp.",
      "Second, the bulb.",
      "Third, the cable.",
      expect.stringContaining("Answer:"),
    ]);
  });

  test("reads a reply written below the quoted mail", async ({ app, org, agent, smtp }) => {
    const first = newId("bottom");
    const id = newId("bottom");
    const raw = await composeMail({
      messageId: id,
      inReplyTo: first,
      references: [first],
      subject: "Re: Sizes",
      text: `On Tue, 2 Dec 2026, Support <${SUPPORT}> wrote:\n> Which size do you need?\n\nThe large one, please.\n\n-- \nZoë`,
    });
    expect((await postMail(app, channel, raw, token)).statusCode).toBe(200);
    await smtp.nextMailTo(CUSTOMER);
    const detail = await detailOfThread({ app, org, agent }, first);
    expect(detail!.messages[0]!.text).toBe("The large one, please.");
  });

  test("leaves out a mail with nothing new in it: no message, no answer of its own", async ({
    app,
    org,
    agent,
    fake,
    smtp,
  }) => {
    const quotedOnly = (id: string, root: string) =>
      composeMail({
        messageId: id,
        inReplyTo: root,
        references: [root],
        subject: "Re: Sizes",
        text: `On Tue, 2 Dec 2026, Support <${SUPPORT}> wrote:\n> Which size do you need?\n`,
      });
    // Alone in its thread: nothing is answered and no conversation starts.
    const lonely = newId("quoted");
    const before = chatRequests(fake).length;
    expect(
      (await postMail(app, channel, await quotedOnly(newId("quoted"), lonely), token)).statusCode,
    ).toBe(200);
    await nothingMoreHappens();
    expect(chatRequests(fake)).toHaveLength(before);
    expect(await detailOfThread({ app, org, agent }, lonely)).toBeUndefined();

    // In a burst with a mail that says something: that one alone is recorded and answered.
    const root = newId("quoted");
    const said = await composeMail({
      messageId: newId("quoted"),
      inReplyTo: root,
      references: [root],
      subject: "Re: Sizes",
      text: "The large one, please.",
    });
    expect(
      (await postMail(app, channel, await quotedOnly(newId("quoted"), root), token)).statusCode,
    ).toBe(200);
    expect((await postMail(app, channel, said, token)).statusCode).toBe(200);
    await smtp.nextMailTo(CUSTOMER);
    const detail = await detailOfThread({ app, org, agent }, root);
    expect(detail!.messages.map((message) => message.text)).toEqual([
      "The large one, please.",
      expect.stringContaining("Answer:"),
    ]);
  });

  test("stores a mail with unstorable text and an oversized id in its headers (no 5xx)", async ({
    app,
    org,
    agent,
    smtp,
  }) => {
    const messageId = newId("hostile");
    const raw = await composeMail({
      messageId,
      from: '"Zo\u0000ë" <zoe@customer.example>',
      subject: "Hello\u0000 there",
      references: [`${"x".repeat(5_000)}@customer.example`],
      text: "Is a NUL\u0000 a problem?",
    });
    const response = await postMail(app, channel, raw, token);
    expect(response.statusCode, response.body).toBe(200);
    const answer = await smtp.nextMailTo(CUSTOMER);
    expect(answer.subject).toBe("Re: Hello there");
    const detail = await detailOfThread({ app, org, agent }, messageId);
    expect(detail!.messages[0]!.text).toBe("Hello there\n\nIs a NUL a problem?");
  });

  test("reads an HTML-only mail as text", async ({ app, org, agent, smtp }) => {
    const messageId = newId("html");
    const raw = await composeMail({
      messageId,
      subject: "Opening hours",
      html: "<html><body><p>When do you <b>open</b> on Sunday?</p><script>x()</script></body></html>",
    });
    expect((await postMail(app, channel, raw, token)).statusCode).toBe(200);
    await smtp.nextMailTo(CUSTOMER);
    const detail = await detailOfThread({ app, org, agent }, messageId);
    expect(detail!.messages[0]!.text).toBe("Opening hours\n\nWhen do you open on Sunday?");
  });

  test("keeps a PDF attachment with the message and gives its text to the model", async ({
    app,
    org,
    agent,
    fake,
    smtp,
  }) => {
    const messageId = newId("pdf");
    const pdf = Buffer.from(buildPdf([["Invoice 2026-117", "Total due: 89 euros"]]));
    const raw = await composeMail({
      messageId,
      subject: "Invoice question",
      text: "Why is the total this high?",
      attachments: [
        { filename: "invoice.pdf", content: pdf, contentType: "application/pdf" },
        {
          filename: "tool.exe",
          content: Buffer.from("MZ\x90\x00"),
          contentType: "application/octet-stream",
        },
      ],
    });
    expect((await postMail(app, channel, raw, token)).statusCode).toBe(200);
    await smtp.nextMailTo(CUSTOMER);
    const sent = JSON.stringify(chatRequests(fake)[0]!.body);
    expect(sent).toContain('<attachment name=\\"invoice.pdf\\">');
    expect(sent).toContain("Total due: 89 euros");
    const detail = await detailOfThread({ app, org, agent }, messageId);
    const [customer] = detail!.messages;
    expect(customer!.attachments).toHaveLength(1);
    expect(customer!.attachments[0]!.url).toMatch(
      /^data:application\/pdf;name=invoice\.pdf;base64,/,
    );
    expect(customer!.text).toContain("[Attachments not read: tool.exe");
  });

  test("sends an operator's reply by mail in the thread, not marked as automatic", async ({
    app,
    org,
    agent,
    smtp,
  }) => {
    const messageId = newId("operator");
    await postMail(
      app,
      channel,
      await composeMail({ messageId, subject: "Refund", text: "I want a refund." }),
      token,
    );
    await smtp.nextMailTo(CUSTOMER);
    const detail = await detailOfThread({ app, org, agent }, messageId);
    const reply = await app.api.inject({
      method: "POST",
      url: `/api/conversations/${detail!.id}/messages?agentId=${agent.id}`,
      headers: org.auth,
      payload: { text: "Hi, Sam here: your refund is on its way." },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json()).toMatchObject({ delivery: { status: "queued" } });
    const mail = await smtp.nextMailTo(CUSTOMER);
    expect(mail.subject).toBe("Re: Refund");
    expect(idsOf(mail.header("in-reply-to"))).toEqual([messageId]);
    expect(mail.header("auto-submitted")).toBe("");
    expect((await simpleParser(mail.raw)).text?.trim()).toBe(
      "Hi, Sam here: your refund is on its way.",
    );
    await eventually(async () => {
      const after = await detailOfThread({ app, org, agent }, messageId);
      expect(after!.messages.at(-1)!.delivery?.status).toBe("sent");
    });
  });
});

describe("mail channels without SMTP_URL", () => {
  test("are refused with an error naming SMTP_URL", async () => {
    const bare = await startChannelTestApp();
    try {
      const response = await bare.app.api.inject({
        method: "POST",
        url: `/api/agents/${bare.agentId}/channels`,
        headers: bare.org.auth,
        payload: { type: "mail", config: { address: SUPPORT } },
      });
      expect(response.statusCode).toBe(503);
      expect(response.json().error).toContain("SMTP_URL");
    } finally {
      await bare.close();
    }
  });
});

describe("mail channels in production", () => {
  test.for([["127.0.0.1"], ["10.1.2.3"], ["localhost"], ["169.254.169.254"], ["[::1]"]])(
    "refuse an IMAP server at %s (400, never dialled)",
    async ([host], { production }) => {
      const response = await production.app.api.inject({
        method: "POST",
        url: `/api/agents/${production.agentId}/channels`,
        headers: production.org.auth,
        payload: {
          type: "mail",
          config: { address: SUPPORT, imap: { url: `imaps://bob:pw@${host}:993` } },
        },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().details).toEqual([
        expect.objectContaining({
          path: "body.config.imap.url",
          message: expect.stringContaining("not public"),
        }),
      ]);
    },
  );
});
