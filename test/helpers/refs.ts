/** Reads refs out of snapshot text, as a model does. No test-runner imports, so the demo can use it too. */

/** The ref of the line `<ref> <role> "<name>"` in a snapshot. */
export function refOf(snapshot: string, role: string, name: string): string {
  const escaped = JSON.stringify(name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = new RegExp(`^\\s*((?:f\\d+)?e\\d+) ${role} ${escaped}`, 'm').exec(snapshot);
  if (!match) throw new Error(`No ${role} "${name}" in snapshot:\n${snapshot}`);
  return match[1]!;
}
