/** One reply in a mail thread. */
type MailReply = {
  from: string;
  to: string;
  /** The subject of the mail answered: the reply's is "Re: " and its base. */
  subject: string;
  /** The Message-ID answered (In-Reply-To) and the thread's chain (References), without brackets. */
  inReplyTo: string | undefined;
  references: string[];
  text: string;
  /** Written by the agent's AI (marked Auto-Submitted), not by a person. */
  automatic: boolean;
};

/** E-mail out for mail channels: SMTP_URL, through nodemailer. */
export type MailTransport = {
  /** Sends the reply; returns its Message-ID without brackets. */
  send(reply: MailReply): Promise<{ messageId: string }>;
  close(): void;
};
