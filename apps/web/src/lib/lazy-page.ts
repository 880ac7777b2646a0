import type { ComponentType } from 'react';
import type { RouteObject } from 'react-router';

type Lazy = NonNullable<RouteObject['lazy']>;

/** A lazy route for a module's default export: each screen is its own chunk, loaded when opened. */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): Lazy {
  return async () => ({ Component: (await load()).default });
}

/** A lazy route for a named export of a module (several screens in one file). */
export function lazyNamed<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): Lazy {
  return lazyPage(() => load().then((m) => ({ default: m[name] })));
}
