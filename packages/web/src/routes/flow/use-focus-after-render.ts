import { useCallback, useEffect, useRef, type RefObject } from 'react';

/**
 * Focuses a field once the render that puts its message on the page is done, so a screen reader
 * reads the field with the message (focused at once, it would be read with the old one or none).
 */
export function useFocusAfterRender(): (field: RefObject<HTMLElement | null> | undefined) => void {
  const pending = useRef<RefObject<HTMLElement | null> | undefined>(undefined);
  useEffect(() => {
    const field = pending.current;
    if (!field) return;
    pending.current = undefined;
    field.current?.focus();
  });
  return useCallback((field) => {
    pending.current = field;
  }, []);
}
