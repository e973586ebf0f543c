/**
 * Host labels: the name of a control inside a web component, where the page labels the component and not the
 * control. A person reads the label the page shows for `<sl-switch>` (a `<label>` around it, a `label`
 * attribute, `aria-label` or `aria-labelledby` on the element) as the name of the switch inside; the browser
 * does not carry those across the shadow boundary, so the control would have no name, or an icon guess from
 * a generated id. For the time of the capture such a control gets that label as its `aria-label`;
 * `releaseLabels` takes it out again.
 */
import type { ListenerRecord } from './listeners.js';

export interface HostLabelsArgs {
  /** Symbol.for key of the listener record, which keeps the shadow roots scripts attached (listeners.ts). */
  listenersKey: string;
  /** Symbol.for key under which the labels set for the capture are kept until released. */
  markersKey: string;
}

/** Runs in the page, before the capture. Self-contained so it survives serialisation. Returns how many it named. */
export function labelHostControls({ listenersKey, markersKey }: HostLabelsArgs): number {
  const w = window as unknown as Record<symbol, unknown>;
  const record = w[Symbol.for(listenersKey)] as ListenerRecord | undefined;
  const roots = record?.shadowRoots() ?? [];
  if (!roots.length) return 0;
  const CONTROLS = 'input:not([type=hidden]), select, textarea, button, [role=button], [role=switch], [role=checkbox], [role=radio], [role=textbox], [role=searchbox], [role=combobox], [role=slider], [role=spinbutton]';
  /** The text a node shows, through slots and into shadow roots, leaving out `skip` (the control's own host). */
  const shown = (node: Node, skip?: Element): string => {
    if (node.nodeType === Node.TEXT_NODE) return node.nodeValue ?? '';
    if (!(node instanceof Element) || node === skip || node.getAttribute('aria-hidden') === 'true') return '';
    if (node instanceof HTMLSlotElement) return node.assignedNodes({ flatten: true }).map((n) => shown(n, skip)).join(' ');
    const children = node.shadowRoot ? node.shadowRoot.childNodes : node.childNodes;
    return [...children].map((n) => shown(n, skip)).join(' ');
  };
  const clean = (text: string) => text.replace(/\s+/g, ' ').trim();
  const byIds = (scope: Element, ids: string | null) => {
    const root = scope.getRootNode() as Document | ShadowRoot;
    return clean((ids ?? '').split(/\s+/).map((id) => (id ? root.getElementById(id) : null)).map((el) => (el ? shown(el) : '')).join(' '));
  };
  /** Roughly the browser's accessible name, with slotted text counted (which is how it reads on screen). */
  const named = (el: Element) => {
    if (clean(el.getAttribute('aria-label') ?? '') || clean(el.getAttribute('title') ?? '')) return true;
    if (el.hasAttribute('aria-labelledby') && byIds(el, el.getAttribute('aria-labelledby'))) return true;
    const labels = (el as HTMLInputElement).labels;
    if (labels && [...labels].some((label) => clean(shown(label)))) return true;
    if (el instanceof HTMLInputElement && ['button', 'submit', 'reset'].includes(el.type) && el.value) return true;
    if (el.matches('button, [role=button], [role=switch], [role=checkbox], [role=radio]') && clean(shown(el))) return true;
    return false;
  };
  /** What the page shows as the label of a component: on the host, around it, or pointing at it. */
  const hostLabel = (host: Element) => {
    const own = clean(host.getAttribute('aria-label') ?? '') || byIds(host, host.getAttribute('aria-labelledby')) || clean(host.getAttribute('label') ?? '');
    if (own) return own;
    const around = host.parentElement?.closest('label');
    if (around) return clean(shown(around, host));
    const root = host.getRootNode() as Document | ShadowRoot;
    const pointing = host.id ? root.querySelector(`label[for="${CSS.escape(host.id)}"]`) : null;
    return pointing ? clean(shown(pointing)) : '';
  };
  const markers: Array<[Element, string]> = [];
  for (const root of roots) {
    if (!root.host.isConnected) continue;
    for (const control of root.querySelectorAll(CONTROLS)) {
      if (named(control)) continue;
      // Out through nested components until one is labelled.
      let label = '';
      for (let host: Element | undefined = root.host; host && !label; host = (host.getRootNode() as ShadowRoot).host) label = hostLabel(host);
      if (!label) continue;
      control.setAttribute('aria-label', label.slice(0, 150));
      markers.push([control, 'aria-label']);
    }
  }
  if (markers.length) w[Symbol.for(markersKey)] = markers;
  return markers.length;
}

/** Runs in the page after the capture: takes out the labels set under `markersKey` (here, and by mathText.ts). */
export function releaseLabels(markersKey: string): void {
  const w = window as unknown as Record<symbol, Array<[Element, string]> | undefined>;
  const symbol = Symbol.for(markersKey);
  for (const [el, attribute] of w[symbol] ?? []) el.removeAttribute(attribute);
  delete w[symbol];
}
