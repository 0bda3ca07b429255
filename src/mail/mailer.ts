/**
 * Outgoing e-mail (login codes): SMTP through nodemailer when SMTP_URL is set, else the log.
 * nodemailer loads only for SMTP, so a service that logs its e-mail never pays its memory.
 */

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** `log`: the request's, so that a message written to the log carries the request's id. */
  send(message: MailMessage, log?: Log): Promise<void>;
}

export interface Log {
  info(obj: object, msg: string): void;
}

export function createMailer(smtpUrl: string | null, from: string, log: Log): Mailer {
  if (!smtpUrl) {
    // A laptop has no mail server: the message goes to the log, where its reader is the user.
    return { send: async (message, requestLog) => (requestLog ?? log).info({ mail: message }, `e-mail to ${message.to}: ${message.subject}`) };
  }
  const transport = import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(smtpUrl));
  return {
    send: async (message) => {
      await (await transport).sendMail({ from, ...message });
    },
  };
}
