import { z } from 'zod';
import type { ResolvedRef } from '../refs.js';
import type { CallContext } from './defineTool.js';
import { afterFrameHold } from './frameHold.js';

export const refSchema = z
  .string()
  .describe('Ref of the element, exactly as in the snapshot, e.g. "e12".');

function targetLabel(target: Pick<ResolvedRef, 'ref' | 'role' | 'name'>): string {
  const name = target.name.length > 60 ? `${target.name.slice(0, 59)}…` : target.name;
  return `${target.ref} (${target.role}${name ? ` "${name}"` : ''})`;
}

/**
 * Resolves a ref for an action, once the frame it is in renders (frameHold.ts), and passes the ref manager's
 * notices on to the result.
 */
export async function resolveTarget(call: CallContext, ref: string, verb: string): Promise<ResolvedRef & { label: string }> {
  const action = `${verb} ${ref}`;
  const target = await afterFrameHold(call, await call.refs.resolve(call.page, ref, action), action);
  call.notices.push(...target.notices);
  return { ...target, label: targetLabel(target) };
}
