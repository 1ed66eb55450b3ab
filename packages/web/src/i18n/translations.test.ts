import { describe, expect, it } from 'vitest';
import { errorCodes } from '@passgate/contract/rules';
import en from './en.json';
import vi from './vi.json';

type Tree = { [key: string]: string | Tree };

/** Every leaf key, dotted: "login.submit", "errors.1017". */
function leafKeys(tree: Tree, prefix = ''): string[] {
  return Object.entries(tree).flatMap(([key, value]) => (typeof value === 'string' ? [`${prefix}${key}`] : leafKeys(value, `${prefix}${key}.`)));
}

function leaf(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split('.')) node = typeof node === 'object' ? node[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

describe('translation files', () => {
  const viKeys = leafKeys(vi);
  const enKeys = leafKeys(en);

  it('have exactly the same keys in vi.json and en.json', () => {
    expect(viKeys.filter((key) => !enKeys.includes(key))).toEqual([]);
    expect(enKeys.filter((key) => !viKeys.includes(key))).toEqual([]);
  });

  it('have no empty text', () => {
    expect(viKeys.filter((key) => !leaf(vi, key)?.trim())).toEqual([]);
    expect(enKeys.filter((key) => !leaf(en, key)?.trim())).toEqual([]);
  });

  it('use the same {{variables}} in both languages', () => {
    const mismatched = viKeys.filter((key) => variables(leaf(vi, key) ?? '').join() !== variables(leaf(en, key) ?? '').join());
    expect(mismatched).toEqual([]);
  });

  it('have a message for every error code of the contract', () => {
    const missing = errorCodes.filter((code) => !leaf(vi, `errors.${code}`) || !leaf(en, `errors.${code}`));
    expect(missing).toEqual([]);
  });

  it('write Vietnamese with its diacritics', () => {
    expect(leaf(vi, 'login.submit')).toBe('Đăng nhập');
    expect(leaf(vi, 'fields.password')).toBe('Mật khẩu');
    expect(leaf(vi, 'login.forgotPassword')).toBe('Quên mật khẩu?');
  });

  it('say what the specification says in English', () => {
    expect(leaf(en, 'validation.usernameInvalid')).toBe('{{username}} has an invalid format');
    expect(leaf(en, 'messages.cannotConnect')).toBe('Cannot connect to Server');
    expect(leaf(en, 'messages.somethingWrong')).toBe('Sorry, something went wrong there');
    expect(leaf(en, 'fields.emailOrPhoneNumber')).toBe('Email or phone number');
  });
});
