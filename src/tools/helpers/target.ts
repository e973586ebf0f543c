/**
 * The element a tool acts on: the ref the model gave, resolved by the tab's refs once the frame it is in renders.
 */
import { z } from 'zod';
import type { ResolvedRef } from '../../session/refs.js';
import type { CallContext } from '../defineTool.js';
import { untilFrameRenders } from '../../loading/index.js';

export const refSchema = z
  .string()
  .describe('Ref of the element, exactly as in the snapshot, e.g. "e12".');

function targetLabel(target: Pick<ResolvedRef, 'ref' | 'role' | 'name'>): string {
  const name = target.name.length > 60 ? `${target.name.slice(0, 59)}…` : target.name;
  return `${target.ref} (${target.role}${name ? ` "${name}"` : ''})`;
}

/**
 * Resolves a ref for an action, once the frame it is in renders (loading/frameWait.ts), and passes the ref
 * manager's notices on to the result.
 */
export async function resolveTarget(call: CallContext, ref: string, verb: string): Promise<ResolvedRef & { label: string }> {
  const action = `${verb} ${ref}`;
  const target = await afterFrameHold(call, await call.tab.refs.resolve(ref, action), action);
  call.notices.push(...target.notices);
  return { ...target, label: targetLabel(target) };
}

/** `target` once its frame renders; when its frame was loaded again meanwhile, the same element found there. */
async function afterFrameHold(call: CallContext, target: ResolvedRef, action: string): Promise<ResolvedRef> {
  const { tab, deadline } = call;
  const frame = await untilFrameRenders(tab, target.locator, action, deadline);
  if (frame === 'unchanged') return target;
  const again = await tab.refs.resolve(target.ref, action);
  if (frame === 'replaced') return again;
  const told = `${target.ref} is in a frame that showed nothing while a style sheet it needs did not answer. The frame was loaded again without the sheet, and the action went to ${again.ref === target.ref ? 'the same element' : again.ref} there.`;
  return { ...again, notices: [...target.notices, told, ...again.notices] };
}
