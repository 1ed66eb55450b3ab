import { describe, expect, it } from 'vitest';
import { errorCodes, errorMessages } from '@passgate/contract/rules';
import accountEn from './account/en.json';
import accountVi from './account/vi.json';
import adminEn from './admin/en.json';
import adminVi from './admin/vi.json';
import flowEn from './en.json';
import flowVi from './vi.json';

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

/** SPEC.md section 8, messages by code (1064 to 1066 written out). */
const SPEC_CODES = [
  1000, 1001, 1002, 1010, 1011, 1012, 1013, 1014, 1015, 1016, 1017, 1018, 1019, 1020, 1021, 1026, 1027, 1031, 1040, 1041, 1042, 1043, 1050, 1060, 1061,
  1062, 1063, 1064, 1065, 1066, 1070, 1071, 1072, 1080, 1100, 1101, 1102, 1103, 1301, 1302, 1303,
];

/** SPEC.md section 8, screen messages: the English text each must have, word for word. */
const SPEC_SCREEN_MESSAGES = [
  'Sorry, something went wrong there',
  'Registration failed',
  'This device is already registered',
  'You do not have any active credentials',
  'Your browser does not support, try with another browser',
  'Verify device failed',
  'Verify device failed, please close this tab and try again',
  'Please close this tab and try again',
  'Your request has expired',
];

/** Screen texts SPEC.md sections 2 to 5 quote (the visitor flow). */
const SPEC_FLOW_TEXTS = ['Your account is now active', 'Update Password successfully', '{{username}} has an invalid format', 'Email', 'Phone number', 'Email or phone number'];

const variables = (text: string) => [...text.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort();

// The parts share one namespace (i18n.ts), so they are checked as the one tree they become.
const vi = { ...flowVi, ...accountVi, ...adminVi };
const en = { ...flowEn, ...accountEn, ...adminEn };

describe('translation files', () => {
  it('keep each top-level key in one part only, so no part overwrites another', () => {
    expect(Object.keys(accountVi).filter((key) => key in flowVi)).toEqual([]);
    expect(Object.keys(accountEn).filter((key) => key in flowEn)).toEqual([]);
    expect(Object.keys(adminVi).filter((key) => key in flowVi || key in accountVi)).toEqual([]);
    expect(Object.keys(adminEn).filter((key) => key in flowEn || key in accountEn)).toEqual([]);
  });

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
    const codes = [...new Set([...errorCodes, ...Object.keys(errorMessages).map(Number)])];
    const missing = codes.filter((code) => !leaf(vi, `errors.${code}`) || !leaf(en, `errors.${code}`));
    expect(missing).toEqual([]);
  });

  it("cover every code of SPEC.md's catalogue, and name no code the contract lacks", () => {
    expect(SPEC_CODES.filter((code) => !(errorCodes as number[]).includes(code))).toEqual([]);
    expect(SPEC_CODES.filter((code) => !leaf(vi, `errors.${code}`) || !leaf(en, `errors.${code}`))).toEqual([]);
    const translated = Object.keys((en as Tree).errors as Tree).map(Number);
    expect(translated.filter((code) => !(errorCodes as number[]).includes(code))).toEqual([]);
  });

  it("have every screen message of SPEC.md section 8, in both languages", () => {
    const enTexts = new Map(enKeys.map((key) => [leaf(en, key), key]));
    const missing = SPEC_SCREEN_MESSAGES.filter((text) => !enTexts.has(text));
    expect(missing).toEqual([]);
    const untranslated = SPEC_SCREEN_MESSAGES.map((text) => enTexts.get(text) ?? '').filter((key) => !key || !leaf(vi, key) || leaf(vi, key) === leaf(en, key));
    expect(untranslated).toEqual([]);
  });

  it('say what the specification quotes for the visitor flow', () => {
    const enTexts = new Set(enKeys.map((key) => leaf(en, key)));
    expect(SPEC_FLOW_TEXTS.filter((text) => !enTexts.has(text))).toEqual([]);
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
