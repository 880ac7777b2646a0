/**
 * Request URLs as logged: the simulator's checkout codes and payment references in return
 * addresses are capabilities and stay out of the logs.
 */
export function redactUrl(url: string): string {
  return (
    url
      .replace(/(\/pay\/simulator\/|\/api\/payments\/simulator\/)[^/?#]+/g, '$1[redacted]')
      .replace(/([?&](?:trxref|reference)=)[^&#]*/g, '$1[redacted]')
      // The notices delivery reports' secret (NOTICE_WEBHOOK_SECRET).
      .replace(/([?&]secret=)[^&#]*/g, '$1[redacted]')
  );
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** pino serializer of `req`: Fastify's default fields, with the URL redacted. */
export function requestSerializer(request: LoggedRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
