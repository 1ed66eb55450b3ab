import type { ChangeNoticeCatalogue, CodeMessageCatalogue } from './texts.ts';

const greeting = (name: string | null) => (name ? `Hello ${name},` : 'Hello,');
const signature = (brand: string) => `Best regards,\nThe ${brand} team`;

export const en: CodeMessageCatalogue = {
  activation: {
    subject: (brand) => `[${brand}] Your account activation code`,
    heading: 'Activate your account',
    greeting,
    intro: (brand) => `Thank you for signing up for ${brand}. To finish your registration, enter this activation code:`,
    validity: (minutes) => `The code is valid for ${minutes} minutes and can be used only once.`,
    warning: (brand) => `Do not share this code with anyone, not even ${brand} staff.`,
    notYou: 'If you did not sign up, you can ignore this e-mail; the account will not be activated.',
    signature,
    sms: (brand, code, minutes) => `${brand}: your activation code is ${code}, valid for ${minutes} minutes. Do not share it with anyone.`,
  },
  recovery: {
    subject: (brand) => `[${brand}] Your password recovery code`,
    heading: 'Reset your password',
    greeting,
    intro: (brand) => `We received a request to reset the password of your ${brand} account. Your recovery code is:`,
    validity: (minutes) => `The code is valid for ${minutes} minutes and can be used only once.`,
    warning: (brand) => `Do not share this code with anyone, not even ${brand} staff.`,
    notYou: 'If you did not ask to reset your password, you can ignore this e-mail; your current password stays unchanged.',
    signature,
    sms: (brand, code, minutes) => `${brand}: your password recovery code is ${code}, valid for ${minutes} minutes. Do not share it with anyone.`,
  },
  email_change: {
    subject: (brand) => `[${brand}] Confirm your new e-mail address`,
    heading: 'Confirm your new e-mail address',
    greeting,
    intro: (brand) => `You asked to use this e-mail address for your ${brand} account. To confirm it, enter this verification code:`,
    validity: (minutes) => `The code is valid for ${minutes} minutes and can be used only once.`,
    warning: (brand) => `Do not share this code with anyone, not even ${brand} staff.`,
    notYou: 'If you did not ask for this, you can ignore this e-mail; no account will use this address.',
    signature,
    sms: (brand, code, minutes) => `${brand}: your verification code is ${code}, valid for ${minutes} minutes. Do not share it with anyone.`,
  },
  phone_change: {
    subject: (brand) => `[${brand}] Confirm your new phone number`,
    heading: 'Confirm your new phone number',
    greeting,
    intro: (brand) => `You asked to use this phone number for your ${brand} account. To confirm it, enter this verification code:`,
    validity: (minutes) => `The code is valid for ${minutes} minutes and can be used only once.`,
    warning: (brand) => `Do not share this code with anyone, not even ${brand} staff.`,
    notYou: 'If you did not ask for this, you can ignore this message; no account will use this number.',
    signature,
    sms: (brand, code, minutes) => `${brand}: your code to confirm this phone number is ${code}, valid for ${minutes} minutes. Do not share it with anyone.`,
  },
};

export const enNotices: ChangeNoticeCatalogue = {
  email_changed: {
    subject: (brand) => `[${brand}] The e-mail address of your account was changed`,
    heading: 'Your e-mail address was changed',
    greeting,
    body: (brand) => `The e-mail address of your ${brand} account was just changed. This address is no longer used to sign in or to reach you.`,
    notYou: (brand) => `If you did not make this change, someone else may be using your account: contact ${brand} support at once.`,
    signature,
    sms: (brand) => `${brand}: the e-mail address of your account was changed. If this was not you, contact ${brand} support at once.`,
  },
  phone_changed: {
    subject: (brand) => `[${brand}] The phone number of your account was changed`,
    heading: 'Your phone number was changed',
    greeting,
    body: (brand) => `The phone number of your ${brand} account was just changed. This number is no longer used to sign in or to reach you.`,
    notYou: (brand) => `If you did not make this change, someone else may be using your account: contact ${brand} support at once.`,
    signature,
    sms: (brand) => `${brand}: the phone number of your account was changed; this number is no longer used. If this was not you, contact ${brand} support at once.`,
  },
};
