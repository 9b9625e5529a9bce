/**
 * A real SMTP server on 127.0.0.1 for tests and benchmarks (the `smtp-server` package), keeping
 * every message it accepts as `mailparser` reads it. It can be stopped and started again on the
 * same port (a mail provider that is down), refuse recipients with a 5xx, or take a message and
 * never answer (a stalled provider).
 */
import type { Socket } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { findFreePort } from './redis-server.ts';
import { arrivals } from './arrivals.ts';

export type SmtpBehaviour = 'accept' | 'reject-recipients' | 'stall';

/** A message counted with `keep: false`: read from its envelope and its Message-ID header only. */
export interface Arrival {
  /** The Message-ID header as sent (`<id@domain>`); undefined when it has none. */
  messageId: string | undefined;
  /** The envelope's recipients (RCPT TO). */
  to: string[];
  /** When it was accepted (ms since the epoch). */
  at: number;
}

export interface SmtpSink {
  port: number;
  /** smtp://127.0.0.1:PORT, for SMTP_URL. */
  url: string;
  /** Every accepted message, in order of arrival (none with `keep: false`). */
  messages: ParsedMail[];
  /** With `keep: false`, every accepted message's Message-ID and recipients, in order of arrival (duplicates show). */
  arrived: Arrival[];
  /** How many messages were accepted. */
  received: () => number;
  /** Connections opened so far (a stalled delivery shows here before any message). */
  connections: () => number;
  behave: (behaviour: SmtpBehaviour) => void;
  /**
   * Refuses these addresses with a 550 to RCPT TO from now on, saying `reply` (by default a
   * mailbox that does not exist); none refuses nobody.
   */
  refuse: (addresses: string[], reply?: string) => void;
  /** Resolves once `count` messages have arrived; rejects after `timeoutMs`. */
  waitFor: (count: number, timeoutMs?: number) => Promise<ParsedMail[]>;
  /** Closes the server and every connection: the provider is down. */
  stop: () => Promise<void>;
  /** Listens again on the same port (nothing happens while it listens). */
  start: () => Promise<void>;
}

export interface SmtpSinkOptions {
  behaviour?: SmtpBehaviour;
  /** Parse and keep each message (default); a benchmark only counts them (with their Message-IDs, `arrived`), to spend nothing on parsing. */
  keep?: boolean;
}

export async function startSmtpSink({ behaviour = 'accept', keep = true }: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const port = await findFreePort();
  const messages: ParsedMail[] = [];
  const arrived: Arrival[] = [];
  const sockets = new Set<Socket>();
  let current = behaviour;
  let refused = new Set<string>();
  let refusal = '5.1.1 Mailbox unavailable';
  let opened = 0;
  let counted = 0;
  let server: SMTPServer | undefined;

  function create(): SMTPServer {
    return new SMTPServer({
      secure: false,
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onConnect(_session, callback) {
        opened += 1;
        callback();
      },
      onRcptTo(address, _session, callback) {
        if (current === 'reject-recipients' || refused.has(address.address.toLowerCase())) {
          const error = Object.assign(new Error(current === 'reject-recipients' ? 'Mailbox unavailable' : refusal), {
            responseCode: 550,
          });
          callback(error);
          return;
        }
        callback();
      },
      onData(stream, session, callback) {
        if (current === 'stall') {
          // Reads the message and never answers: the sender waits until its own timeout.
          stream.resume();
          return;
        }
        if (!keep) {
          // Only the header is kept, until its end: a benchmark tells duplicates apart by Message-ID.
          let header = '';
          let headerRead = false;
          stream.on('data', (chunk: Buffer) => {
            if (headerRead) return;
            header += chunk.toString('latin1');
            const end = header.indexOf('\r\n\r\n');
            if (end >= 0) [header, headerRead] = [header.slice(0, end), true];
          });
          stream.on('end', () => {
            counted += 1;
            arrived.push({
              messageId: /^message-id:\s*(<[^>]*>)/im.exec(header)?.[1],
              to: session.envelope.rcptTo.map((recipient) => recipient.address),
              at: Date.now(),
            });
            callback();
          });
          return;
        }
        simpleParser(stream)
          .then((mail) => {
            messages.push(mail);
            callback();
          })
          .catch((error: Error) => callback(error));
      },
    });
  }

  async function start(): Promise<void> {
    if (server) return;
    server = create();
    const listening = server;
    // A client that drops its connection (a killed function, a sender's timeout) is no failure of the server.
    listening.on('error', () => undefined);
    listening.server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      listening.server.once('error', reject);
      listening.listen(port, '127.0.0.1', () => resolve());
    });
  }

  async function stop(): Promise<void> {
    const closing = server;
    server = undefined;
    if (!closing) return;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => closing.close(() => resolve()));
  }

  await start();
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    arrived,
    connections: () => opened,
    received: () => counted + messages.length,
    behave: (next) => {
      current = next;
    },
    refuse: (addresses, reply = '5.1.1 Mailbox unavailable') => {
      refused = new Set(addresses.map((address) => address.toLowerCase()));
      refusal = reply;
    },
    waitFor: (count, timeoutMs) => arrivals(messages, count, 'messages', timeoutMs),
    stop,
    start,
  };
}
