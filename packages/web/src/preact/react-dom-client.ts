import { options, type Ref, type VNode } from 'preact';
import { createRoot, hydrateRoot } from 'preact/compat/client';

/**
 * `react-dom/client` in the shipped bundle (vite.config.ts): Preact's, plus what React DOM does that
 * Preact leaves to the browser. React focuses an element rendered with `autoFocus` when it mounts;
 * Preact only writes the attribute, which a browser honours at page load, not for a dialog or a
 * screen rendered later: those fields and buttons would open unfocused.
 */
const focusedOnMount = new WeakSet<Element>();

function setRef<T>(ref: Ref<T> | null | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}

const nextVnodeHook = options.vnode;
options.vnode = (vnode: VNode) => {
  const props = vnode.props as { autoFocus?: unknown };
  if (typeof vnode.type === 'string' && props.autoFocus) {
    const ref = vnode.ref as Ref<HTMLElement> | null | undefined;
    vnode.ref = (element: HTMLElement | null) => {
      // Once per element, as React does on mount: a re-render must not pull the focus back. Right
      // after the whole render is in the page (a microtask, before it paints): focus() lays the page
      // out, which mid-render would be thrown away and done again. Deferring it to the next frame
      // instead let the page paint before that layout, so the layout became a long task of its own
      // after the first paint, which Lighthouse counts as blocking: /login's TBT went from about 200
      // to 300-420 ms (bisected to that change, medians of 3 on one machine).
      if (element && !focusedOnMount.has(element)) {
        focusedOnMount.add(element);
        queueMicrotask(() => {
          if (element.isConnected) element.focus();
        });
      }
      setRef(ref, element);
    };
  }
  nextVnodeHook?.(vnode);
};

export { createRoot, hydrateRoot };
