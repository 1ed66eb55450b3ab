import type { UserEvent } from '@testing-library/user-event';

/**
 * Puts `text` in `field` at once, as a paste or a password manager does, then presses Enter when
 * the text ends with `{Enter}`. Typed key by key, a form re-renders at every key and a test spends
 * seconds entering a password; a test about what typing itself does uses user.type.
 */
export async function enterText(user: UserEvent, field: HTMLElement, text: string): Promise<void> {
  const enter = text.endsWith('{Enter}');
  await user.click(field);
  await user.paste(enter ? text.slice(0, -'{Enter}'.length) : text);
  if (enter) await user.keyboard('{Enter}');
}
