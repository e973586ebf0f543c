/**
 * Runs a function in the page from its source text. Bundlers that keep function names (esbuild's
 * keepNames, used by tsx and many toolchains) wrap inner functions in a `__name(...)` helper that
 * does not exist in the page; a local stand-in makes the source safe to evaluate anywhere.
 */
import type { Frame, Page } from 'playwright-core';

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
type Helpers = Record<string, Function>;

/**
 * The source text of `fn(arg, helpers)`. Helpers are other in-page functions passed in by name, so that one
 * evaluate can run several of them (one round trip) while each stays a self-contained, typed function.
 */
export function pageScript<A, R>(fn: (arg: A, helpers: never) => R, arg?: A, helpers?: Helpers): string {
  const args = [arg === undefined ? 'undefined' : JSON.stringify(arg)];
  // Only when given: a function's second parameter may mean something else when called on its own.
  if (helpers) args.push(`{ ${Object.entries(helpers).map(([name, helper]) => `${JSON.stringify(name)}: (${helper.toString()})`).join(', ')} }`);
  return `(() => { const __name = (f) => f; return (${fn.toString()})(${args.join(', ')}); })()`;
}

export async function evaluateInPage<A, R>(target: Page | Frame, fn: (arg: A, helpers: never) => R, arg?: A, helpers?: Helpers): Promise<Awaited<R>> {
  return (await target.evaluate(pageScript(fn, arg, helpers))) as Awaited<R>;
}
