import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { currentActor, type RouteAccess } from './auth';
import type { ZodApp } from './write-route';

type Actor = ReturnType<typeof currentActor>;

/**
 * One half of a document's routes: the zod schema of its query (GET) or body (PUT), the service call
 * that answers, and (optional) the zod schema of that 200 answer (its response schema), which then
 * types the answer (a service whose answer drifts from its schema fails typecheck).
 */
type Half<S extends z.ZodType, R extends z.ZodType> =
  | readonly [schema: S, answer: (actor: Actor, input: z.output<S>) => Promise<unknown>]
  | readonly [schema: S, answer: (actor: Actor, input: z.output<S>) => Promise<z.input<R>>, response: R];

/** `response: { 200: schema }` when the half names its answer's schema. */
const answerSchema = (schema: z.ZodType | undefined) => (schema === undefined ? {} : { response: { 200: schema } });

/**
 * Registers a document (a sheet, a register, a term's dates) that the signed-in user loads with GET
 * and saves with PUT at the same url: `load` gets the checked query, `save` the checked body, and
 * each answers with its result. `auth` says who may call both, unless `saveAuth` says otherwise for
 * the PUT.
 */
export function documentRoutes(r: ZodApp, tags: string[]) {
  return <Q extends z.ZodType, B extends z.ZodType, LR extends z.ZodType, SR extends z.ZodType>(
    url: string,
    auth: RouteAccess,
    { load: [querystring, load, loaded], save: [body, save, saved] }: { load: Half<Q, LR>; save: Half<B, SR> },
    saveAuth: RouteAccess = auth,
  ): void => {
    // Registered untyped: the schemas check the request at run time, and the service sees it typed by them.
    const app = r as FastifyInstance;
    app.get(url, { config: { auth }, schema: { tags, querystring, ...answerSchema(loaded) } }, (req) =>
      load(currentActor(req), req.query as z.output<Q>),
    );
    app.put(url, { config: { auth: saveAuth }, schema: { tags, body, ...answerSchema(saved) } }, (req) =>
      save(currentActor(req), req.body as z.output<B>),
    );
  };
}

/** Answers a CSV import with its preview, under the status the import chose (200 applied or dry run, 400 refused). */
export async function sendImportPreview(
  reply: FastifyReply,
  outcome: Promise<{ status: number; preview: unknown }>,
): Promise<FastifyReply> {
  const { status, preview } = await outcome;
  return reply.status(status).send(preview);
}
