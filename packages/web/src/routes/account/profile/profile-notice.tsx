import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { Notice } from '../../../components/Notice.tsx';

type Severity = 'error' | 'info' | 'success';

interface Shown {
  /** The section that showed it: the message appears there, beside what the user just did. */
  owner: string;
  severity: Severity;
  text: string;
  /** Tells one showing of a text from the next, so the same text said again is announced again. */
  serial: number;
}

interface ProfileNotices {
  shown: Shown | null;
  show: (owner: string, severity: Severity, text: string) => void;
  clear: (owner: string) => void;
  /** Takes down the notice whoever showed it: a field error shown later replaces it. */
  dismiss: () => void;
}

const ProfileNoticeContext = createContext<ProfileNotices | null>(null);

/**
 * One notice at a time on the profile page: a new one (from any section) replaces the one before,
 * so messages never pile up and a screen reader hears the latest only.
 */
export function ProfileNoticeProvider({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState<Shown | null>(null);
  const show = useCallback((owner: string, severity: Severity, text: string) => {
    setShown((previous) => ({ owner, severity, text, serial: (previous?.serial ?? 0) + 1 }));
  }, []);
  const clear = useCallback((owner: string) => setShown((previous) => (previous?.owner === owner ? null : previous)), []);
  const dismiss = useCallback(() => setShown(null), []);
  const value = useMemo(() => ({ shown, show, clear, dismiss }), [shown, show, clear, dismiss]);
  return <ProfileNoticeContext.Provider value={value}>{children}</ProfileNoticeContext.Provider>;
}

/** A section's side of the page's one notice: `show` and `clear` for it, and `slot` to render where it appears. */
export function useProfileNotice(owner: string) {
  const notices = useContext(ProfileNoticeContext);
  if (!notices) throw new Error('useProfileNotice outside ProfileNoticeProvider');
  const { shown, show, clear, dismiss } = notices;
  const mine = shown?.owner === owner ? shown : null;
  return {
    active: mine !== null,
    show: useCallback((severity: Severity, text: string) => show(owner, severity, text), [show, owner]),
    clear: useCallback(() => clear(owner), [clear, owner]),
    dismiss,
    slot: mine ? <Notice key={mine.serial} severity={mine.severity} message={mine.text} /> : null,
  };
}
