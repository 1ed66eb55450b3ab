import type { ChangeNoticeCatalogue, CodeMessageCatalogue } from './texts.ts';

const greeting = (name: string | null) => (name ? `Xin chào ${name},` : 'Xin chào,');
const signature = (brand: string) => `Trân trọng,\nĐội ngũ ${brand}`;

/** Tiếng Việt: the default language. */
export const vi: CodeMessageCatalogue = {
  activation: {
    subject: (brand) => `[${brand}] Mã kích hoạt tài khoản của bạn`,
    heading: 'Kích hoạt tài khoản',
    greeting,
    intro: (brand) => `Cảm ơn bạn đã đăng ký tài khoản ${brand}. Để hoàn tất việc đăng ký, vui lòng nhập mã kích hoạt dưới đây:`,
    validity: (minutes) => `Mã có hiệu lực trong ${minutes} phút và chỉ sử dụng được một lần.`,
    warning: (brand) => `Vui lòng không chia sẻ mã này với bất kỳ ai, kể cả nhân viên ${brand}.`,
    notYou: 'Nếu bạn không thực hiện đăng ký này, hãy bỏ qua email; tài khoản sẽ không được kích hoạt.',
    signature,
    sms: (brand, code, minutes) => `${brand}: Mã kích hoạt tài khoản của bạn là ${code}, hiệu lực ${minutes} phút. Không chia sẻ mã này với bất kỳ ai.`,
  },
  recovery: {
    subject: (brand) => `[${brand}] Mã khôi phục mật khẩu`,
    heading: 'Khôi phục mật khẩu',
    greeting,
    intro: (brand) => `Chúng tôi đã nhận được yêu cầu đặt lại mật khẩu cho tài khoản ${brand} của bạn. Mã khôi phục của bạn là:`,
    validity: (minutes) => `Mã có hiệu lực trong ${minutes} phút và chỉ sử dụng được một lần.`,
    warning: (brand) => `Vui lòng không chia sẻ mã này với bất kỳ ai, kể cả nhân viên ${brand}.`,
    notYou: 'Nếu bạn không yêu cầu đặt lại mật khẩu, hãy bỏ qua email này; mật khẩu hiện tại của bạn vẫn được giữ nguyên.',
    signature,
    sms: (brand, code, minutes) => `${brand}: Mã khôi phục mật khẩu của bạn là ${code}, hiệu lực ${minutes} phút. Không chia sẻ mã này với bất kỳ ai.`,
  },
  email_change: {
    subject: (brand) => `[${brand}] Xác nhận địa chỉ email mới`,
    heading: 'Xác nhận địa chỉ email mới',
    greeting,
    intro: (brand) => `Bạn vừa yêu cầu sử dụng địa chỉ email này cho tài khoản ${brand} của mình. Để xác nhận, vui lòng nhập mã xác minh dưới đây:`,
    validity: (minutes) => `Mã có hiệu lực trong ${minutes} phút và chỉ sử dụng được một lần.`,
    warning: (brand) => `Vui lòng không chia sẻ mã này với bất kỳ ai, kể cả nhân viên ${brand}.`,
    notYou: 'Nếu bạn không thực hiện yêu cầu này, hãy bỏ qua email; địa chỉ này sẽ không được gắn với tài khoản nào.',
    signature,
    sms: (brand, code, minutes) => `${brand}: Mã xác minh của bạn là ${code}, hiệu lực ${minutes} phút. Không chia sẻ mã này với bất kỳ ai.`,
  },
  phone_change: {
    subject: (brand) => `[${brand}] Xác nhận số điện thoại mới`,
    heading: 'Xác nhận số điện thoại mới',
    greeting,
    intro: (brand) => `Bạn vừa yêu cầu sử dụng số điện thoại này cho tài khoản ${brand} của mình. Để xác nhận, vui lòng nhập mã xác minh dưới đây:`,
    validity: (minutes) => `Mã có hiệu lực trong ${minutes} phút và chỉ sử dụng được một lần.`,
    warning: (brand) => `Vui lòng không chia sẻ mã này với bất kỳ ai, kể cả nhân viên ${brand}.`,
    notYou: 'Nếu bạn không thực hiện yêu cầu này, hãy bỏ qua tin nhắn; số điện thoại này sẽ không được gắn với tài khoản nào.',
    signature,
    sms: (brand, code, minutes) => `${brand}: Mã xác nhận số điện thoại của bạn là ${code}, hiệu lực ${minutes} phút. Không chia sẻ mã này với bất kỳ ai.`,
  },
};

export const viNotices: ChangeNoticeCatalogue = {
  email_changed: {
    subject: (brand) => `[${brand}] Địa chỉ email của tài khoản đã được thay đổi`,
    heading: 'Địa chỉ email của bạn đã được thay đổi',
    greeting,
    body: (brand) => `Địa chỉ email của tài khoản ${brand} của bạn vừa được thay đổi. Địa chỉ này sẽ không còn được dùng để đăng nhập hay liên lạc với bạn.`,
    notYou: (brand) => `Nếu bạn không thực hiện thay đổi này, có thể người khác đang sử dụng tài khoản của bạn: hãy liên hệ ngay với bộ phận hỗ trợ của ${brand}.`,
    signature,
    sms: (brand) => `${brand}: Địa chỉ email của tài khoản bạn đã được thay đổi. Nếu không phải bạn thực hiện, hãy liên hệ ngay với bộ phận hỗ trợ của ${brand}.`,
  },
  phone_changed: {
    subject: (brand) => `[${brand}] Số điện thoại của tài khoản đã được thay đổi`,
    heading: 'Số điện thoại của bạn đã được thay đổi',
    greeting,
    body: (brand) => `Số điện thoại của tài khoản ${brand} của bạn vừa được thay đổi. Số này sẽ không còn được dùng để đăng nhập hay liên lạc với bạn.`,
    notYou: (brand) => `Nếu bạn không thực hiện thay đổi này, có thể người khác đang sử dụng tài khoản của bạn: hãy liên hệ ngay với bộ phận hỗ trợ của ${brand}.`,
    signature,
    sms: (brand) => `${brand}: Số điện thoại của tài khoản bạn đã được thay đổi, số này không còn được sử dụng. Nếu không phải bạn thực hiện, hãy liên hệ ngay với bộ phận hỗ trợ của ${brand}.`,
  },
};
