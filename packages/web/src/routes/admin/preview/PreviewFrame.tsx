import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import createCache from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import Box from '@mui/material/Box';
import GlobalStyles from '@mui/material/GlobalStyles';

interface Props {
  /** The width the previewed page believes it has (its media queries see it): 375 for a phone, 1280 for a desktop. */
  width: number;
  height: number;
  /** The frame's accessible name. */
  title: string;
  children: ReactNode;
}

/**
 * Renders `children` into an iframe of the console's own page (no address, no request), so the
 * previewed screen lays out at the width it is given, phone or desktop, with its own styles, and is
 * scaled down to fit the column. The frame is inert: nothing in it can be focused, typed into,
 * clicked or submitted.
 */
export function PreviewFrame({ width, height, title, children }: Props) {
  const frameRef = useRef<HTMLIFrameElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [frameDocument, setFrameDocument] = useState<Document | null>(null);
  const [available, setAvailable] = useState(width);

  useLayoutEffect(() => {
    const frame = frameRef.current;
    if (!frame) return;
    const adopt = () => {
      const doc = frame.contentDocument;
      if (!doc) return;
      doc.documentElement.lang = document.documentElement.lang;
      setFrameDocument(doc);
    };
    adopt();
    // Some browsers replace the initial blank document once the frame has loaded.
    frame.addEventListener('load', adopt);
    return () => frame.removeEventListener('load', adopt);
  }, []);

  useEffect(() => {
    const box = boxRef.current;
    if (!box || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      if (entry) setAvailable(entry.contentRect.width);
    });
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // The real screen focuses its first field as it mounts: in the preview that must not take the
  // focus away from the form the operator is typing in.
  const focusBefore = useRef<Element | null>(null);
  focusBefore.current ??= document.activeElement;
  useEffect(() => {
    if (!frameDocument) return;
    const refuse = (event: FocusEvent) => {
      (event.target as HTMLElement | null)?.blur?.();
    };
    const active = frameDocument.activeElement as HTMLElement | null;
    if (active && active !== frameDocument.body) active.blur();
    boxRef.current?.scrollTo?.(0, 0);
    const before = focusBefore.current;
    if (document.activeElement === frameRef.current && before instanceof HTMLElement) before.focus();
    frameDocument.addEventListener('focusin', refuse, true);
    return () => frameDocument.removeEventListener('focusin', refuse, true);
  }, [frameDocument]);

  // The frame's styles go into the frame's own head (emotion writes into the console's otherwise).
  const cache = useMemo(() => (frameDocument ? createCache({ key: 'preview', container: frameDocument.head }) : null), [frameDocument]);
  const scale = available > 0 ? Math.min(1, available / width) : 1;

  return (
    // `clip`, not `hidden`: a hidden box is still scrolled to show a focused element of the unscaled frame.
    <Box ref={boxRef} sx={{ width: '100%', maxWidth: width, height: height * scale, overflow: 'clip', borderRadius: 2, border: 1, borderColor: 'divider' }}>
      <iframe
        ref={frameRef}
        title={title}
        // Not a page of its own: nothing may be focused, clicked or submitted in it.
        inert
        tabIndex={-1}
        style={{ width, height, border: 0, display: 'block', transform: `scale(${scale})`, transformOrigin: 'top left' }}
      />
      {frameDocument &&
        cache &&
        createPortal(
          <CacheProvider value={cache}>
            {/* A picture of the screen's top: no scrollbars, which would also narrow the phone width. */}
            <GlobalStyles styles={{ html: { overflow: 'hidden' } }} />
            {children}
          </CacheProvider>,
          frameDocument.body,
        )}
    </Box>
  );
}
