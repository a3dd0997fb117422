import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(mail: Mail): Promise<void>;
}

interface MailLog {
  info(obj: object, msg: string): void;
}

/** SMTP through nodemailer, for SMTP_URL (smtp://user:pass@host:port or smtps://…). */
export class SmtpMailer implements Mailer {
  private readonly transport: Transporter;
  constructor(
    url: string,
    private readonly from: string,
  ) {
    this.transport = nodemailer.createTransport(url);
  }
  async send(mail: Mail) {
    await this.transport.sendMail({ from: this.from, ...mail });
  }
}

/**
 * Without SMTP every mail is written as an .eml file to <data dir>/outbox/ and its subject logged,
 * so a new user on a laptop can still read their verification code.
 */
export class OutboxMailer implements Mailer {
  private readonly transport = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  constructor(
    private readonly dir: string,
    private readonly from: string,
    private readonly log: MailLog,
  ) {}
  async send(mail: Mail) {
    const info = (await this.transport.sendMail({ from: this.from, ...mail })) as { message: Buffer };
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const file = path.join(this.dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${mail.to}.eml`);
    writeFileSync(file, info.message, { mode: 0o600 });
    this.log.info(
      { to: mail.to, subject: mail.subject, file },
      'mail written to the outbox (SMTP_URL is not set)',
    );
  }
}
