import { expect, type Locator } from '@playwright/test';
import { SecurityPage } from './security-pages.ts';

/** The Security page's 'Change password' row and its dialog. */
export class ChangePasswordSection extends SecurityPage {
  /** The row: a button named by its label and hint. */
  get row(): Locator {
    return this.page.getByRole('button', { name: new RegExp(`^${this.t('account.security.changePassword.row')}`) });
  }
  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('account.security.changePassword.title'), exact: true });
  }
  get currentPassword(): Locator {
    return this.dialog.getByRole('textbox', { name: this.t('account.security.changePassword.currentPassword'), exact: true });
  }
  get newPassword(): Locator {
    return this.dialog.getByRole('textbox', { name: this.t('fields.newPassword'), exact: true });
  }
  get confirmNewPassword(): Locator {
    return this.dialog.getByRole('textbox', { name: this.t('fields.confirmNewPassword'), exact: true });
  }
  get strengthMeter(): Locator {
    return this.dialog.getByRole('meter', { name: this.t('passwordStrength.label'), exact: true });
  }
  get submit(): Locator {
    return this.dialog.getByRole('button', { name: this.t('account.security.changePassword.submit'), exact: true });
  }
  get cancel(): Locator {
    return this.dialog.getByRole('button', { name: this.t('common.cancel'), exact: true });
  }
  get doneNotice(): Locator {
    return this.page.getByRole('alert').filter({ hasText: this.t('account.security.changePassword.done') });
  }

  async open(): Promise<void> {
    await this.row.click();
    await expect(this.dialog).toBeVisible();
    await expect(this.currentPassword).toBeFocused();
  }

  async fill(current: string, next: string): Promise<void> {
    await this.currentPassword.fill(current);
    await this.newPassword.fill(next);
    await this.confirmNewPassword.fill(next);
  }
}
