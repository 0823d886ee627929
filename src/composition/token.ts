import type { ContainerModuleLoadOptions } from 'inversify';

/**
 * A service identifier that carries the type of what it is bound to, so that a binding's
 * factory gets its dependencies typed from their tokens and cannot take the wrong one.
 */
export type Token<T> = symbol & { readonly __provides?: T };

export const token = <T>(name: string): Token<T> => Symbol.for(`proof-registry:${name}`) as Token<T>;

type Provided<D extends readonly Token<unknown>[]> = { -readonly [K in keyof D]: D[K] extends Token<infer T> ? T : never };

/**
 * Binds `target` to what `factory` makes of the values of `dependencies` (resolved first,
 * awaited where they are made asynchronously). Bindings are singletons: each thing is made
 * once, when something first needs it.
 */
export function provide<T, const D extends readonly Token<unknown>[]>(
  bind: ContainerModuleLoadOptions['bind'],
  target: Token<T>,
  dependencies: D,
  factory: (...values: Provided<D>) => T | Promise<T>,
): void {
  bind<T>(target)
    .toResolvedValue(factory as (...values: unknown[]) => T | Promise<T>, dependencies as unknown as symbol[])
    .inSingletonScope();
}

/** What `target` is bound to, made (and awaited) if it was not yet. */
export const resolve = <T>(container: { getAsync<U>(id: symbol): Promise<U> }, target: Token<T>): Promise<T> => container.getAsync<T>(target);
