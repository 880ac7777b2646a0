import type { z } from 'zod';

type SameKeys<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;

/** True when A and B are each assignable to the other with the same keys: the same shape, nullable and optional fields alike. */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? SameKeys<A, B> : false) : false;

/**
 * A response schema that describes exactly the type `T` its answer is declared with (a domain
 * interface the presenters return and the web reads): `describes<T>()(z.object({…}))` fails to
 * compile when the schema's output and `T` differ, so neither can drift from the other.
 */
export const describes =
  <T>() =>
  <S extends z.ZodType>(schema: S & (SameShape<z.output<S>, T> extends true ? unknown : { drift: [z.output<S>, T] })): S =>
    schema;

/** True when every `T` parses (T fits the schema's input) and every parse is a `T` (the output fits T). */
export type Agrees<S extends z.ZodType, T> = [T] extends [z.input<S>] ? ([z.output<S>] extends [T] ? true : false) : false;
/** Fails to compile unless its argument is `true`: `type _X = Check<Agrees<typeof xSchema, X>>`. */
export type Check<T extends true> = T;
