import { expect, type Locator } from '@playwright/test';
import { SecurityPage } from './security-pages.ts';
import { escapeRegExp } from './flow-pages.ts';

/** The Security page's 'Where you're signed in' section: one list item per session, and the sign-out buttons. */
export class SessionsSection extends SecurityPage {
  get section(): Locator {
    return this.page.getByRole('region', { name: this.t('account.security.sessions.title'), exact: true });
  }
  get list(): Locator {
    return this.section.getByRole('list', { name: this.t('account.security.sessions.listLabel'), exact: true });
  }
  get items(): Locator {
    return this.list.getByRole('listitem');
  }
  /** The session item whose heading is `name` ('Chrome 131 · Linux'). */
  item(name: string): Locator {
    return this.items.filter({ has: this.page.getByRole('heading', { name, exact: true }) });
  }
  get thisSession(): Locator {
    return this.items.filter({ hasText: this.t('account.security.sessions.thisSession') });
  }
  /** The 'Sign out' button of the session named `name`: its accessible name says which session. */
  signOutSession(name: string): Locator {
    return this.section.getByRole('button', { name: new RegExp(`^${escapeRegExp(this.t('account.security.sessions.signOut'))} ${escapeRegExp(name)} \\(`) });
  }
  get signOutOthers(): Locator {
    return this.section.getByRole('button', { name: this.t('account.security.sessions.signOutOthers'), exact: true });
  }
  get confirmDialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('account.security.sessions.signOutTitle'), exact: true });
  }
  get confirm(): Locator {
    return this.confirmDialog.getByRole('button', { name: this.t('account.security.sessions.signOut'), exact: true });
  }
  signedOut(name: string): Locator {
    return this.page.getByRole('alert').filter({ hasText: this.t('account.security.sessions.signedOut', { session: name }) });
  }
  async expectSessions(count: number): Promise<void> {
    await expect(this.items).toHaveCount(count);
  }
}
