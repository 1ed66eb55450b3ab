import { readFile } from 'node:fs/promises';
import { expect, type Locator, type Page } from '@playwright/test';
import { tr, type Locale } from './i18n.ts';

/** How a backup code is shown: two groups of five from the unambiguous alphabet. */
export const BACKUP_CODE_SHAPE = /^[2-9a-hjkmnp-z]{5}-[2-9a-hjkmnp-z]{5}$/;

/** The dialog that shows the ten backup codes once, with Copy and Download (.txt). */
export class BackupCodesDialog {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  private t(key: string, values?: Record<string, string>): string {
    return tr(this.locale, key, values);
  }
  get dialog(): Locator {
    return this.page.getByRole('dialog', { name: this.t('account.security.backupCodes.dialogTitle'), exact: true });
  }
  get list(): Locator {
    return this.dialog.getByRole('list', { name: this.t('account.security.backupCodes.listLabel'), exact: true });
  }
  get keepSafe(): Locator {
    return this.dialog.getByText(this.t('account.security.backupCodes.keepSafe'), { exact: true });
  }
  get copy(): Locator {
    return this.dialog.getByRole('button', { name: this.t('account.security.backupCodes.copy'), exact: true });
  }
  get download(): Locator {
    return this.dialog.getByRole('link', { name: this.t('account.security.backupCodes.download'), exact: true });
  }
  get copied(): Locator {
    return this.dialog.getByRole('status').filter({ hasText: this.t('account.security.backupCodes.copied') });
  }
  get done(): Locator {
    return this.dialog.getByRole('button', { name: this.t('account.security.backupCodes.done'), exact: true });
  }

  /** The ten codes as the list shows them. */
  async codes(): Promise<string[]> {
    await expect(this.list.getByRole('listitem')).toHaveCount(10);
    return (await this.list.getByRole('listitem').allTextContents()).map((code) => code.trim());
  }

  /** Clicks Download and answers the saved file's name and text. */
  async downloadFile(): Promise<{ name: string; text: string }> {
    const [download] = await Promise.all([this.page.waitForEvent('download'), this.download.click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), text: await readFile(path, 'utf8') };
  }
}

/** The Security page's backup codes row: how many are left and 'Generate new backup codes'. */
export class BackupCodesRow {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  remaining(count: number): Locator {
    return this.page.getByText(tr(this.locale, 'account.security.backupCodes.remaining', { count: String(count), total: '10' }), { exact: true });
  }
  get regenerate(): Locator {
    return this.page.getByRole('button', { name: tr(this.locale, 'account.security.backupCodes.regenerate'), exact: true });
  }
}

/** /login/mfa's 'Try another way' and the backup code form. */
export class SecondStepOtherWays {
  constructor(
    readonly page: Page,
    readonly locale: Locale = 'vi',
  ) {}

  private t(key: string): string {
    return tr(this.locale, key);
  }
  get tryAnotherWay(): Locator {
    return this.page.getByRole('button', { name: this.t('login2Step.tryAnotherWay'), exact: true });
  }
  way(method: 'totp' | 'sms' | 'email' | 'backup_code'): Locator {
    return this.page.getByRole('listitem').getByRole('button', { name: this.t(`login2Step.methods.${method}`), exact: true });
  }
  get backupCode(): Locator {
    return this.page.getByRole('textbox', { name: this.t('login2Step.backupCode'), exact: true });
  }
  get submit(): Locator {
    return this.page.getByRole('button', { name: this.t('login2Step.submit'), exact: true });
  }
  async useBackupCode(code: string): Promise<void> {
    await this.tryAnotherWay.click();
    await expect(this.page.getByText(this.t('login2Step.chooseIntro'), { exact: true })).toBeVisible();
    await this.way('backup_code').click();
    await expect(this.page.getByText(this.t('login2Step.backupInstructions'), { exact: true })).toBeVisible();
    await this.backupCode.fill(code);
    await this.submit.click();
  }
}
