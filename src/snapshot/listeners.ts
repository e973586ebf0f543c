/**
 * Listeners: an init script, run in every document before the page's own scripts, that remembers which
 * elements had a click, pointer or key listener attached by script (`addEventListener`, or an `onclick`
 * property set from script). Such elements carry no attribute, role or pointer cursor that says they react,
 * so without this record a `<span>` the page made into a "Search" button would get no ref. It also keeps the
 * shadow roots scripts attach: a MutationObserver on the document does not see inside them, so the change
 * watch (changes.ts) observes each one itself.
 *
 * The record lives on `window` under a registry symbol, where the page-facts script (facts.ts) reads it. It
 * holds weak references, so elements the page drops are not kept alive. The patched functions are Proxies
 * of the originals: they behave the same and still print as native code.
 */

/** Where the record lives: `window[Symbol.for(LISTENERS_KEY)]`. */
export const LISTENERS_KEY = 'mastra-browser-toolset.listeners';

/** The record, as the in-page scripts that read it see it (facts.ts, changes.ts). */
export interface ListenerRecord {
  /** Nodes that still have at least one such listener (elements, and documents for delegation). */
  live(): EventTarget[];
  /** Handlers attached to elements so far: a new one may have made an element a control (changes.ts). */
  readonly added: number;
  /** Shadow roots attached by script, those still alive. */
  shadowRoots(): ShadowRoot[];
  /** Shadow roots ever attached by script. */
  readonly shadowRootsAttached: number;
}

/** Runs in the page before any of its scripts. Kept free of closures over module scope so it can be serialised. */
function recordListeners(key: string): void {
  const symbol = Symbol.for(key);
  const w = window as unknown as Record<symbol, unknown>;
  if (w[symbol]) return;
  // Events by which a person makes an element act: pressing, clicking, touching, typing on it.
  const TYPES = new Set(['click', 'dblclick', 'mousedown', 'mouseup', 'pointerdown', 'pointerup', 'touchstart', 'touchend', 'keydown', 'keyup', 'keypress', 'contextmenu']);
  const counts = new WeakMap<object, number>();
  const targets: Array<WeakRef<EventTarget>> = [];
  let added = 0;
  const record = (target: EventTarget, delta: number) => {
    if (delta > 0 && target instanceof Element) added++;
    const before = counts.get(target);
    if (before === undefined) {
      if (delta < 0) return;
      targets.push(new WeakRef(target));
    }
    counts.set(target, Math.max(0, (before ?? 0) + delta));
  };
  const isNode = (target: unknown): target is EventTarget => target instanceof Node;
  const proto = EventTarget.prototype;
  const patch = (name: 'addEventListener' | 'removeEventListener', delta: number) => {
    proto[name] = new Proxy(proto[name], {
      apply(original, self, args) {
        if (isNode(self) && TYPES.has(String(args[0])) && args[1]) record(self, delta);
        return Reflect.apply(original, self, args);
      },
    });
  };
  patch('addEventListener', 1);
  patch('removeEventListener', -1);
  // `el.onclick = fn` from a script leaves no attribute either.
  for (const property of ['onclick', 'onmousedown', 'onpointerdown', 'onkeydown']) {
    const descriptor = Object.getOwnPropertyDescriptor(HTMLElement.prototype, property);
    if (!descriptor?.set || !descriptor.get) continue;
    const set = descriptor.set;
    Object.defineProperty(HTMLElement.prototype, property, {
      ...descriptor,
      set: new Proxy(set, {
        apply(original, self, args) {
          if (isNode(self) && typeof args[0] === 'function') record(self, 1);
          return Reflect.apply(original, self, args);
        },
      }),
    });
  }
  // Web components render inside shadow roots, out of the document observer's sight.
  let shadowRoots: Array<WeakRef<ShadowRoot>> = [];
  let attached = 0;
  const attachShadow = Element.prototype.attachShadow;
  Element.prototype.attachShadow = new Proxy(attachShadow, {
    apply(original, self, args) {
      const root = Reflect.apply(original, self, args) as ShadowRoot;
      shadowRoots.push(new WeakRef(root));
      attached++;
      return root;
    },
  });
  const recorded: ListenerRecord = {
    live(): EventTarget[] {
      const out: EventTarget[] = [];
      let kept = 0;
      for (const ref of targets) {
        const target = ref.deref();
        if (!target) continue; // collected: compact the list as we go
        targets[kept++] = ref;
        if ((counts.get(target) ?? 0) > 0) out.push(target);
      }
      targets.length = kept;
      return out;
    },
    get added(): number {
      return added;
    },
    shadowRoots(): ShadowRoot[] {
      shadowRoots = shadowRoots.filter((ref) => ref.deref() !== undefined); // drop the collected ones
      return shadowRoots.map((ref) => ref.deref()!);
    },
    get shadowRootsAttached(): number {
      return attached;
    },
  };
  Object.defineProperty(w, symbol, { value: recorded, enumerable: false });
}

/** The init script's source text (a serialised function can carry bundler helpers the page lacks). */
export const LISTENERS_INIT_SCRIPT = `(() => { const __name = (f) => f; (${recordListeners.toString()})(${JSON.stringify(LISTENERS_KEY)}); })()`;
