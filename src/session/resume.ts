/**
 * A session and a session store (store/): what is read from a session to save it, and how a saved session's tabs
 * are opened again in another process. Pages are loaded anew there, so what only the page held (form input not
 * sent, scroll positions, a history) is gone; cookies and each origin's storage come with the context.
 */
import type { ResolvedConfig } from '../config.js';
import { toBrowserToolError } from '../errors.js';
import type { SavedSession } from '../store/types.js';
import { Deadline } from '../deadline.js';
import { openAddress, type Opened } from '../loading/index.js';
import type { StorageReader } from './storageRead.js';
import type { Tab } from './tab.js';
import { NOT_RESPONDING, type Tabs } from './tabs.js';

/** How long saving may read the session before giving up (a hung tab answers nothing): the next save tries again. */
const CAPTURE_MS = 5_000;

export type Reopen = Pick<SavedSession, 'tabs' | 'active' | 'refs'>;

/**
 * Cookies and each origin's storage (IndexedDB included), the tabs and the active one, and the refs of its page;
 * undefined when they cannot be read within `CAPTURE_MS`.
 */
export async function readSaveable(storage: StorageReader, tabs: Tabs, notices: string[]): Promise<SavedSession | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const gaveUp = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), CAPTURE_MS)));
  const read = (async (): Promise<SavedSession> => {
    const all = tabs.all();
    const [state, listed] = await Promise.all([storage.read(), tabs.list()]);
    const saved = listed.map(({ url, title }) => ({ url, title: title === NOT_RESPONDING ? '' : title }));
    const active = tabs.activeTab;
    const known = active?.refs.handedOut();
    return { storage: state, tabs: saved, active: active ? all.indexOf(active) : -1, notices, ...(known && known.url === active?.page.url() ? { refs: known } : {}) };
  })();
  return Promise.race([read.catch(() => undefined), gaveUp]).finally(() => clearTimeout(timer));
}

/**
 * Opens the saved tabs again, in their order, and loads the active one within the call's deadline; the others
 * load after it, in the background, so the call's own page does not share the CPU with them. The refs the model
 * holds for the active page are carried over (refs.ts finds them again by role and name). Returns what the
 * result must say when the active page did not load.
 */
export async function reopenTabs({ tabs: saved, active, refs: carried }: Reopen, tabs: Tabs, deadline: Deadline, config: ResolvedConfig): Promise<string | undefined> {
  const opened: Tab[] = [];
  for (let i = 0; i < saved.length; i++) opened.push(await tabs.open({ activate: false }));
  const index = saved[active] ? active : saved.length - 1;
  const tab = opened[index]!;
  const { url } = saved[index]!;
  const background = () => {
    saved.forEach((where, i) => {
      if (i === index || where.url === 'about:blank') return;
      // Until the document arrives, within a navigation's time; what the page then loads is its own affair.
      const loading = openAddress(opened[i]!, where.url, { deadline: new Deadline(config.navigationTimeout, 'resume'), settle: config.settle, waitUntil: 'commit' });
      opened[i]!.loadingInBackground(where, loading.catch(() => {}));
    });
  };
  tabs.activate(tab);
  if (url === 'about:blank') {
    background();
    return undefined;
  }
  // Before the page loads, so that its refs are numbered above the ones carried over.
  if (carried?.url === url) tab.refs.carry(carried);
  try {
    const loaded = await openAddress(tab, url, { deadline, settle: config.settle });
    if (loaded.kind !== 'page') return `The page this conversation was on (${url}) could not be loaded again: ${whyNot(loaded)} Navigate again.`;
    return undefined;
  } catch (error) {
    return `The page this conversation was on (${url}) could not be loaded again: ${toBrowserToolError(error).message} Navigate again.`;
  } finally {
    background();
  }
}

/** Why opening an address brought no page, in a sentence. */
function whyNot(opened: Exclude<Opened<unknown>, { kind: 'page' }>): string {
  switch (opened.kind) {
    case 'timeout':
      return `its server sent no page within ${opened.seconds} s.`;
    case 'hung':
      return 'the tab did not respond.';
    case 'failed':
      return toBrowserToolError(opened.error).message;
    case 'blocked':
      return `it led to ${opened.blocked[0]}, which is not in the allowed domains.`;
    case 'dialog':
      return 'it opened a dialog while loading.';
    case 'noContent':
      return 'it answered with no page (HTTP 204).';
    default:
      return 'it is a file to download, not a page.';
  }
}

/** The one line a resumed conversation is told. */
export function restoredNotice(saved: SavedSession, keptLogins: boolean): string {
  const logins = keptLogins ? 'logins kept' : 'logins were not kept (the session store has no encryption key: sessionStoreKey)';
  const pages = saved.tabs.length ? 'pages were loaded again; unsaved form input and scroll positions were lost' : 'no pages were open';
  return `This conversation's browser was restored from saved state: ${pages}; ${logins}.`;
}
