import type { CodeMessageCatalogue } from './texts.ts';

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
};
