import type {
  FastifyBaseLogger,
  FastifyContextConfig,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { currentUser, type AuthUser } from './auth';

/** The app as the route files register on it: request parts typed by their zod schemas. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** A request whose params, query and body are those its zod schema `S` checked. */
export type ZodRequest<S extends FastifySchema> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  S,
  ZodTypeProvider
>;

/** What `act` must answer: the input of the route's declared 201 or 200 response schema (any, when neither is declared; a 204 sends none). */
type ZodAnswer<A> = A extends z.ZodType ? z.input<A> : unknown;
export type AnswerOf<S extends FastifySchema> = S extends { response: infer R }
  ? R extends { 201: infer A }
    ? ZodAnswer<A>
    : R extends { 200: infer A }
      ? ZodAnswer<A>
      : unknown
  : unknown;

/** Who may call a write route (its `config`), and its answer when not 200: 201 created, 204 no body. */
export type WriteAccess = FastifyContextConfig & { status?: 201 | 204; bodyLimit?: number };

/**
 * Registers a route that changes something on behalf of the signed-in user: `act` gets the acting
 * user and the checked request, and its result is the answer (with 204, none). A module's many
 * writes differ only in these; the method, url, roles and schema stay written where each is
 * registered (the authorization matrix reads them from the live route table).
 */
export function writeRoutes(r: ZodApp, tags: string[]) {
  return <S extends FastifySchema>(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    { status, bodyLimit, ...config }: WriteAccess,
    schema: S,
    act: (user: AuthUser, request: ZodRequest<S>) => Promise<AnswerOf<S>>,
  ): void => {
    // Registered untyped: the schema checks the request at run time, and `act` sees it typed by `S`.
    (r as FastifyInstance).route<RouteGenericInterface, FastifyContextConfig, FastifySchema>({
      method,
      url,
      config,
      ...(bodyLimit === undefined ? {} : { bodyLimit }),
      schema: { tags, ...schema },
      handler: async (request, reply) => {
        const result = await act(currentUser(request), request as unknown as ZodRequest<S>);
        if (status === 204) return reply.status(204).send();
        if (status === 201) return reply.status(201).send(result);
        return result;
      },
    });
  };
}
