import type { CodeMessageCatalogue } from './texts.ts';

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
};
