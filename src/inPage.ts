/**
 * Runs a function in the page from its source text. Bundlers that keep function names (esbuild's
 * keepNames, used by tsx and many toolchains) wrap inner functions in a `__name(...)` helper that
 * does not exist in the page; a local stand-in makes the source safe to evaluate anywhere.
 */
import type { Frame, Page } from 'playwright-core';

export function pageScript<A, R>(fn: (arg: A) => R, arg?: A): string {
  return `(() => { const __name = (f) => f; return (${fn.toString()})(${arg === undefined ? '' : JSON.stringify(arg)}); })()`;
}

export async function evaluateInPage<A, R>(target: Page | Frame, fn: (arg: A) => R, arg?: A): Promise<Awaited<R>> {
  return (await target.evaluate(pageScript(fn, arg))) as Awaited<R>;
}
