import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import pino from 'pino';
import type { Config } from '../config';
import { redactUrl, requestSerializer } from './log-redaction';

type LoggerOption = FastifyServerOptions['logger'];
type Stream = { write(line: string): void };

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Writes text to the process's output after every log line written so far (main.ts's banner with
     * the sign-ins: the last thing a start prints). JSON lines are written asynchronously (pino's
     * destination); text written to process.stdout directly would overtake them.
     */
    printAfterLogs: (text: string) => void;
  }
}

/** Secrets never reach the logs (ASVS 16.2.5). */
const REDACT = {
  paths: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-paystack-signature"]', '*.password', '*.refresh', '*.access'],
  censor: '[redacted]',
};

/**
 * pino-pretty as a synchronous stream in this process (no transport worker): its lines and the
 * start-up notes main.ts writes to stdout come out in the order they were made. A development
 * dependency: where it is not installed (a production image), the JSON lines are kept.
 */
async function prettyStream(): Promise<Stream | undefined> {
  try {
    const { default: pretty } = await import('pino-pretty');
    return pretty({
      colorize: Boolean(process.stdout.isTTY),
      translateTime: 'SYS:HH:MM:ss',
      // The request line (below) already says what a developer needs; the rest is noise on a terminal.
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      singleLine: true,
      sync: true,
    });
  } catch {
    return undefined;
  }
}

/**
 * Fastify's logger options from the configuration. JSON (production, tests): pino's own lines, with
 * Fastify's request logging as before (log collectors parse them). Pretty (development): one line per
 * entry, and Fastify's two lines per request replaced by one, at debug (`OneLinePerRequest`).
 */
export async function loggerOptions(
  config: Config,
  logger: boolean | undefined,
  loggerStream?: Stream,
): Promise<{ logger: LoggerOption; pretty: boolean; printAfterLogs: (text: string) => void }> {
  const toStdout = (text: string) => void process.stdout.write(text);
  if (!loggerStream && (logger === false || config.logLevel === 'silent'))
    return { logger: false, pretty: false, printAfterLogs: toStdout };
  const pretty = !loggerStream && config.logFormat === 'pretty' ? await prettyStream() : undefined;
  // pino's default destination (standard output, asynchronous), made here to write the banner through it.
  const json = !loggerStream && !pretty ? pino.destination({ dest: 1, sync: false }) : undefined;
  const stream = loggerStream ?? pretty ?? json;
  return {
    logger: {
      level: config.logLevel === 'silent' ? 'info' : config.logLevel,
      ...(stream ? { stream } : {}),
      // Checkout codes and payment references in URLs are capabilities: logged redacted.
      serializers: { req: requestSerializer },
      redact: REDACT,
    },
    pretty: pretty !== undefined,
    // The pretty stream writes synchronously: standard output keeps the order.
    printAfterLogs: json ? (text) => void json.write(text) : toStdout,
  };
}

/**
 * Development: one line per answered request, at debug (`LOG_LEVEL=debug`; `npm run dev` sets it),
 * instead of Fastify's "incoming request" and "request completed" at info. Errors keep their line.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    reply.log.debug(`${request.method} ${redactUrl(request.url)} ${reply.statusCode} ${reply.elapsedTime.toFixed(1)} ms`);
  }
}
