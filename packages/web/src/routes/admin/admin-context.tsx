import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { AdminMe } from '@passgate/contract';

export interface AdminTenantOption {
  id: string;
  name: string;
}

export interface AdminContextValue {
  me: AdminMe;
  /** The tenants this admin may pick (operators: every tenant; tenant admins: theirs). */
  tenants: AdminTenantOption[];
  /** The tenant the console works in (clients, users); null only for an operator before any tenant exists. */
  tenantId: string | null;
  setTenantId: (tenantId: string) => void;
}

const AdminContext = createContext<AdminContextValue | null>(null);

export function useAdmin(): AdminContextValue {
  const value = useContext(AdminContext);
  if (!value) throw new Error('useAdmin outside <AdminGate>');
  return value;
}

const TENANT_KEY = 'passgate.admin-tenant';

function storedTenant(): string | null {
  try {
    return window.sessionStorage.getItem(TENANT_KEY);
  } catch {
    return null;
  }
}

/** The picked tenant, kept for this tab; one the admin may not pick falls back to the first allowed. */
export function AdminProvider({ me, tenants, children }: { me: AdminMe; tenants: AdminTenantOption[]; children: ReactNode }) {
  const [picked, setPicked] = useState<string | null>(storedTenant);
  const allowed = tenants.some((tenant) => tenant.id === picked);
  const tenantId = allowed ? picked : (tenants[0]?.id ?? null);
  useEffect(() => {
    try {
      if (tenantId) window.sessionStorage.setItem(TENANT_KEY, tenantId);
    } catch {
      // Without storage the pick lasts until the page is left.
    }
  }, [tenantId]);
  const setTenantId = useCallback((next: string) => setPicked(next), []);
  const value = useMemo(() => ({ me, tenants, tenantId, setTenantId }), [me, tenants, tenantId, setTenantId]);
  return <AdminContext.Provider value={value}>{children}</AdminContext.Provider>;
}
