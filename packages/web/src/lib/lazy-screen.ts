import { createElement, lazy, type ComponentType } from 'react';

/** A lazily loaded screen that can be asked for before it renders. */
export type LazyScreen = ComponentType & { preload: () => Promise<unknown> };

/**
 * A screen in a chunk of its own, as React's lazy(), that can also be loaded before the first
 * render. Once loaded it renders directly: a page whose chunk is already on its way (the server
 * announces it with the HTML) then renders its screen once, instead of a spinner first and the
 * screen again when the chunk has come (on a slow phone, a render of the whole page saved).
 */
export function lazyScreen(load: () => Promise<{ default: ComponentType }>): LazyScreen {
  let loaded: ComponentType | undefined;
  let pending: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (pending ??= load().then((module) => {
      loaded = module.default;
      return module;
    }));
  const Lazy = lazy(preload);
  const Screen = () => createElement(loaded ?? Lazy);
  return Object.assign(Screen, { preload });
}
