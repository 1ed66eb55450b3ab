import { options, type VNode } from 'preact';

/**
 * React focuses an element rendered with `autoFocus` when it mounts; Preact, which renders the
 * shipped bundle (vite.config.ts), only sets the `autofocus` attribute, which browsers honour at
 * page load and not for a field that appears later (a dialog's, the next step's). This gives the
 * shipped bundle React's behaviour: each element with autoFocus is focused once, when it first
 * appears. Under React (the dev server, the component tests) Preact renders nothing and this hook
 * never runs.
 */
type Ref = ((element: Element | null) => void) | { current: Element | null };

const focused = new WeakSet<Element>();

function focusOnce(element: Element | null): void {
  if (!(element instanceof HTMLElement) || focused.has(element)) return;
  focused.add(element);
  // After the commit, when the element is in the document and a dialog's focus trap has settled.
  queueMicrotask(() => element.focus());
}

// One wrapper per original ref, so that a re-render does not detach and re-attach it.
const wrappers = new WeakMap<object, Ref>();
function withFocus(ref: Ref): Ref {
  let wrapper = wrappers.get(ref);
  if (!wrapper) {
    wrapper = (element: Element | null) => {
      if (typeof ref === 'function') ref(element);
      else ref.current = element;
      focusOnce(element);
    };
    wrappers.set(ref, wrapper);
  }
  return wrapper;
}

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  const props = vnode.props as Record<string, unknown> | null;
  if (typeof vnode.type === 'string' && props && (props.autoFocus === true || props.autofocus === true)) {
    const ref = vnode.ref as Ref | null | undefined;
    vnode.ref = ref ? withFocus(ref) : focusOnce;
  }
  previous?.(vnode);
};
