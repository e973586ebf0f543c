/**
 * The header line that names a wall (walls.ts reads the signals in the page): what it is, and what to do next,
 * in one line that starts with `!` as the snapshot's other warnings do. No wall, no line. With secrets for the
 * page (browser_type { secret }), a line names them, joined to a sign-in wall's line when there is one.
 */
import { boxKey, type AriaNode, type Capture } from './tree.js';
import type { WallField, WallSignals } from './walls.js';

export interface WallLine {
  /** The wall's line, then the secrets' line when the wall's does not name them. */
  lines: string[];
  /** The line says what the covering layer is: the overlay or dialog warning is not said as well. */
  namesCover: boolean;
}

const HANDOFF = '(browser_handoff)';

/** The ref of the node whose box is `key`, found in the capture's main-frame tree. */
function refAt(nodes: Array<AriaNode | string>, key: string | undefined): string | undefined {
  if (!key) return undefined;
  for (const node of nodes) {
    if (typeof node === 'string') continue;
    if (node.ref && node.box && boxKey(node.box) === key) return node.ref;
    if (node.role === 'iframe') continue; // boxes inside frames are the frame's own
    const found = node.children && refAt(node.children, key);
    if (found) return found;
  }
  return undefined;
}

function fieldsText(fields: WallField[], tree: AriaNode[]): string {
  return fields.map((f) => `${JSON.stringify(f.name.slice(0, 40))}${refAt(tree, f.key) ? ` ${refAt(tree, f.key)}` : ''}`).join(', ');
}

/** How to get past a form that wants the account's password or a code: the page's secrets, else the user. */
function signIn(kind: 'login' | 'code' | 'signup', secrets: string[]): string {
  const names = `secrets for this page: ${secrets.join(', ')}`;
  if (kind === 'signup') return `create an account only with details the user gave${secrets.length ? ` (${names})` : ''}`;
  if (secrets.length) return `type ${kind === 'code' ? 'it' : 'them'} with browser_type { ref, secret } (${names})`;
  return kind === 'code' ? `ask the user for the code ${HANDOFF}` : `sign in only with details the user gave, else ask them ${HANDOFF}`;
}

/**
 * The line for the strongest wall the capture's signals show, or the secrets line alone, or undefined. The
 * capture's tree gives the refs of the fields and buttons the line names.
 */
export function wallLine(capture: Pick<Capture, 'walls' | 'tree' | 'overlay'>, secrets: string[] = []): WallLine | undefined {
  // A challenge's own layer says nothing (an empty overlay, a frame's content): the wall's line says what it is.
  const line = capture.walls && strongest(capture.walls, capture.tree, secrets, !!capture.overlay && !capture.overlay.text);
  const names = secrets.length && !line?.text.includes('secrets for this page') ? [`secrets for this page: ${secrets.join(', ')} (browser_type { ref, secret })`] : [];
  if (!line && !names.length) return undefined;
  return { lines: [...(line ? [line.text] : []), ...names], namesCover: !!line?.namesCover };
}

function strongest(walls: WallSignals, tree: AriaNode[], secrets: string[], blankCover: boolean): { text: string; namesCover: boolean } | undefined {
  const over = walls.kind ? ` over this ${walls.kind}` : '';
  const { captcha, form, cover } = walls;
  if (walls.challenge) {
    const vendor = walls.challenge.vendor === 'a bot check' ? '' : ` (${walls.challenge.vendor})`;
    return { text: `! bot check${vendor}, not the site: browser_wait a few seconds, then snapshot; if it stays, a person must pass it ${HANDOFF}`, namesCover: blankCover };
  }
  if (form) {
    const what = form.kind === 'login' ? 'sign-in form' : form.kind === 'signup' ? 'sign-up form' : 'one-time code prompt';
    const where = form.covered ? ' over the page' : '';
    const check = captcha ? (captcha.visible ? `, with a ${captcha.vendor} a person must solve` : `, guarded by an invisible ${captcha.vendor} check`) : '';
    const next = captcha?.visible ? `${signIn(form.kind, secrets)}; the ${captcha.vendor} needs a person ${HANDOFF}` : signIn(form.kind, secrets);
    return { text: `! ${what}${where} (${fieldsText(form.fields, tree)})${check}: ${next}`, namesCover: form.covered };
  }
  if (captcha?.visible) return { text: `! ${captcha.vendor} on this page: a person must solve it ${HANDOFF}`, namesCover: blankCover };
  if (cover?.kind === 'consent') {
    const accept = refAt(tree, cover.accept);
    const reject = refAt(tree, cover.reject);
    const choice = accept && reject ? `accept ${accept} or reject ${reject}` : accept ? `accept it with ${accept}` : 'accept or reject it by ref';
    return { text: `! cookie consent wall${over}: ${choice} (its controls are listed first)`, namesCover: true };
  }
  if (cover?.kind === 'paywall' || walls.paywall) {
    const next = secrets.length ? `sign in with browser_type { ref, secret } (secrets for this page: ${secrets.join(', ')})` : 'tell the user it needs a subscription; browser_read reads what is shown';
    return { text: `! paywall${over || ' over this page'}: ${next}`, namesCover: !!cover };
  }
  if (cover?.kind === 'signin') return { text: `! sign-in wall${over || ' over this page'}: ${signIn('login', secrets)}`, namesCover: true };
  if (walls.error) {
    const served = walls.status && walls.status < 400 ? ` served with status ${walls.status}` : walls.status ? ` (HTTP ${walls.status})` : '';
    return { text: `! error page${served}: ${JSON.stringify(walls.error.text.slice(0, 80))}; check the address, or go back`, namesCover: false };
  }
  return undefined;
}
