import { createTransport } from "nodemailer";
import { AppError } from "../../lib/errors.ts";
import type { Logger } from "../../lib/logger.ts";

type Mail = { to: string; subject: string; text: string };

/** The service's e-mail out (SMTP_URL); without it nothing can be sent, and callers say so. */
export type Mailer = {
  readonly enabled: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
};

export function createMailer(settings: {
  smtpUrl: string | undefined;
  from: string;
  logger: Logger;
}): Mailer {
  if (!settings.smtpUrl) {
    return {
      enabled: false,
      async send() {
        throw new AppError(
          "SERVICE_UNAVAILABLE",
          "E-mail is not configured on this server (SMTP_URL)",
        );
      },
      close() {},
    };
  }
  const transport = createTransport(settings.smtpUrl, { from: settings.from });
  return {
    enabled: true,
    async send(mail) {
      try {
        await transport.sendMail({ to: mail.to, subject: mail.subject, text: mail.text });
      } catch (error) {
        // The server's answer, never the message (it carries a one-time link).
        settings.logger.warn({ code: (error as { code?: string }).code }, "sending e-mail failed");
        throw new AppError("BAD_GATEWAY", "The e-mail could not be sent; try again later");
      }
    },
    close: () => transport.close(),
  };
}
