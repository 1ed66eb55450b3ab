import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';

interface HeldPassword {
  /** The password the re-check dialog accepted, for this visit of the security pages only. */
  password: string | null;
  setPassword: (password: string | null) => void;
}

const HeldPasswordContext = createContext<HeldPassword | null>(null);

/**
 * Holds the re-checked password in memory (React state) while the user stays in /user/security/*:
 * it is never written to any storage, and leaving the security pages forgets it.
 */
export function HeldPasswordProvider({ children }: { children: ReactNode }) {
  const [password, setPassword] = useState<string | null>(null);
  const value = useMemo(() => ({ password, setPassword }), [password]);
  return <HeldPasswordContext.Provider value={value}>{children}</HeldPasswordContext.Provider>;
}

export function useHeldPassword(): HeldPassword {
  const held = useContext(HeldPasswordContext);
  if (!held) throw new Error('useHeldPassword outside HeldPasswordProvider');
  return held;
}
