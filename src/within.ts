/** `work`'s value, or undefined when it has not come within `ms`: the work is left to end on its own. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<undefined>((done) => (timer = setTimeout(() => done(undefined), ms)));
  try {
    return await Promise.race([work, gaveUp]);
  } finally {
    clearTimeout(timer);
  }
}
