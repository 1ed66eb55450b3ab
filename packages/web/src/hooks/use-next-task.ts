import { useEffect, useState } from 'react';

/**
 * False in the first render, true from the browser's next task on: a component that draws part of
 * a large first screen later splits one long task into two, so a phone's main thread can answer a
 * tap between them (Preact renders a tree in one go, without React's time slicing).
 */
export function useNextTask(): boolean {
  const [reached, setReached] = useState(false);
  useEffect(() => {
    if (reached) return undefined;
    const id = window.setTimeout(() => setReached(true), 0);
    return () => window.clearTimeout(id);
  }, [reached]);
  return reached;
}
