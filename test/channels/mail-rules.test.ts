import { describe, expect } from "vitest";
import type { ReceivedMail } from "../fakes/smtp-server.ts";
import { createAgent } from "../harness/agents.ts";
import {
  type ChannelBody,
  chatRequests,
  conversationsOf,
  createChannel,
  eventually,
} from "./channel-helpers.ts";
import { composeMail, mailTest, postMail, SUPPORT } from "./mail-helpers.ts";

type MailChannel = ChannelBody & { inboundToken: string };

const test = mailTest();

let channel: MailChannel;
test.beforeAll(async ({ app, org, agent }) => {
  channel = (await createChannel(
    { app, org, agent },
    { type: "mail", config: { address: SUPPORT } },
  )) as MailChannel;
});

let sequence = 0;
const newId = () => {
  sequence += 1;
  return `rule${sequence}.${Date.now()}@elsewhere.example`;
};
const settle = () => new Promise((resolve) => setTimeout(resolve, 1_200));

describe("mail that is never answered", () => {
  test.for<[string, Record<string, string>]>([
    ["Auto-Submitted: auto-replied", { "Auto-Submitted": "auto-replied" }],
    ["Auto-Submitted: auto-generated", { "Auto-Submitted": "auto-generated" }],
    ["Precedence: bulk", { Precedence: "bulk" }],
    ["Precedence: list", { Precedence: "list" }],
    ["Precedence: junk", { Precedence: "junk" }],
    ["X-Autoreply", { "X-Autoreply": "yes" }],
    ["X-Autorespond", { "X-Autorespond": "Out of office" }],
  ])(
    "a mail with %s: 200, nothing stored or sent",
    async ([, headers], { app, org, agent, fake, smtp }) => {
      const from = `someone${sequence}@elsewhere.example`;
      const raw = await composeMail({ messageId: newId(), from, headers, text: "I am away." });
      const response = await postMail(app, channel, raw, channel.inboundToken);
      expect(response.statusCode).toBe(200);
      await settle();
      expect(smtp.received.filter((mail) => mail.to.includes(from))).toHaveLength(0);
      expect(chatRequests(fake)).toHaveLength(0);
      expect((await conversationsOf({ app, org, agent })).data).toHaveLength(0);
    },
  );

  test.for<[string, { from: string; headers?: Record<string, string> }]>([
    ["from the channel's own address", { from: `"Support" <${SUPPORT.toUpperCase()}>` }],
    ["from MAILER-DAEMON", { from: "MAILER-DAEMON@mx.elsewhere.example" }],
    ["from postmaster", { from: "postmaster@elsewhere.example" }],
    [
      "a delivery report (multipart/report)",
      {
        from: "reports@elsewhere.example",
        headers: { "Content-Type": "multipart/report; report-type=delivery-status; boundary=b1" },
      },
    ],
  ])(
    "a mail %s: 200, nothing stored or sent",
    async ([, spec], { app, org, agent, fake, smtp }) => {
      const raw = await composeMail({ messageId: newId(), text: "Undeliverable: …", ...spec });
      expect((await postMail(app, channel, raw, channel.inboundToken)).statusCode).toBe(200);
      await settle();
      expect(smtp.received).toHaveLength(0);
      expect(chatRequests(fake)).toHaveLength(0);
      expect((await conversationsOf({ app, org, agent })).data).toHaveLength(0);
    },
  );

  test("but Auto-Submitted: no is a person writing, and is answered", async ({ app, smtp }) => {
    const from = "person@elsewhere.example";
    const raw = await composeMail({
      messageId: newId(),
      from,
      headers: { "Auto-Submitted": "no" },
      text: "Do you ship to Lisbon?",
    });
    expect((await postMail(app, channel, raw, channel.inboundToken)).statusCode).toBe(200);
    const answer = await smtp.nextMailTo(from);
    expect(answer.header("auto-submitted")).toBe("auto-replied");
  });
});

describe("two agentdesk agents whose addresses mail each other", () => {
  test("answer each other's first mail once, and never the answers: no loop", async ({
    app,
    org,
    agent,
    fake,
    smtp,
  }) => {
    const otherAgent = await createAgent(app, org, { name: "Sales" });
    const alpha = (await createChannel(
      { app, org, agent },
      {
        type: "mail",
        config: { address: "alpha@one.example" },
      },
    )) as MailChannel;
    const beta = (await createChannel(
      { app, org, agent: otherAgent },
      { type: "mail", config: { address: "beta@two.example" } },
    )) as MailChannel;
    // The mail server delivers what either agent sends to the other's inbound URL, as a
    // forwarding rule in a real server would.
    const delivered: Array<Promise<unknown>> = [];
    smtp.onMail((mail: ReceivedMail) => {
      const target = mail.to.includes("alpha@one.example")
        ? alpha
        : mail.to.includes("beta@two.example")
          ? beta
          : null;
      if (target) delivered.push(postMail(app, target, mail.raw, target.inboundToken));
    });
    const before = smtp.received.length;
    fake.requests.length = 0;
    // Someone writes to each agent from the other's address by hand (a colleague).
    await postMail(
      app,
      alpha,
      await composeMail({
        messageId: newId(),
        from: "beta@two.example",
        to: "alpha@one.example",
        text: "Hello alpha",
      }),
      alpha.inboundToken,
    );
    await postMail(
      app,
      beta,
      await composeMail({
        messageId: newId(),
        from: "alpha@one.example",
        to: "beta@two.example",
        text: "Hello beta",
      }),
      beta.inboundToken,
    );
    await eventually(() => expect(smtp.received.length - before).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    await Promise.all(delivered);
    const sent = smtp.received.slice(before);
    expect(sent.map((mail) => mail.to[0]).sort()).toEqual([
      "alpha@one.example",
      "beta@two.example",
    ]);
    expect(sent.every((mail) => mail.header("auto-submitted") === "auto-replied")).toBe(true);
    expect(chatRequests(fake)).toHaveLength(2);
    expect(delivered).toHaveLength(2);
  });
});
