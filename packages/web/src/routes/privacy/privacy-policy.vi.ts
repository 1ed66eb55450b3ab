/**
 * The privacy policy (SPEC.md section 1: written in Vietnamese, for Vietnamese users). It is a
 * document, not interface text, so it lives here rather than in the translation files.
 */
export interface PolicySection {
  id: string;
  heading: string;
  paragraphs?: string[];
  items?: string[];
  closing?: string;
}

export const POLICY_UPDATED = '21/11/2026';

export const POLICY_INTRO = [
  'Passgate là dịch vụ đăng nhập một lần (single sign-on): bạn dùng một tài khoản để đăng nhập vào nhiều ứng dụng của các đối tác. Chúng tôi tôn trọng quyền riêng tư của bạn và chỉ xử lý dữ liệu cá nhân khi thật sự cần để cung cấp dịch vụ một cách an toàn.',
  'Chính sách này giải thích chúng tôi thu thập những dữ liệu nào, dùng chúng vào việc gì, lưu giữ trong bao lâu, bạn có những quyền gì và chúng tôi bảo vệ dữ liệu của bạn ra sao. Khi tạo tài khoản hoặc đăng nhập, bạn đồng ý với cách xử lý dữ liệu được mô tả dưới đây.',
];

export const POLICY_SECTIONS: PolicySection[] = [
  {
    id: 'du-lieu-thu-thap',
    heading: '1. Dữ liệu chúng tôi thu thập',
    paragraphs: ['Chúng tôi chỉ thu thập những dữ liệu cần cho việc đăng nhập và quản lý tài khoản của bạn:'],
    items: [
      'Thông tin tài khoản: họ tên, địa chỉ email, số điện thoại, ngày sinh, giới tính và ảnh đại diện mà bạn cung cấp.',
      'Thông tin đăng nhập: mật khẩu (chỉ lưu dưới dạng đã băm một chiều, không ai đọc được mật khẩu gốc, kể cả chúng tôi), thiết lập xác minh 2 bước và khóa công khai của các thiết bị bạn đã đăng ký.',
      'Thông tin từ tài khoản mạng xã hội: khi bạn chọn đăng nhập bằng Google hoặc Facebook, chúng tôi nhận mã định danh, tên và email mà nhà cung cấp đó chia sẻ với sự đồng ý của bạn.',
      'Thông tin kỹ thuật: địa chỉ IP, loại trình duyệt, thời điểm đăng nhập và các sự kiện bảo mật như đăng nhập thất bại, đổi mật khẩu, thêm hoặc xóa thiết bị.',
    ],
  },
  {
    id: 'muc-dich-su-dung',
    heading: '2. Chúng tôi sử dụng dữ liệu như thế nào',
    items: [
      'Xác thực bạn khi đăng nhập và chuyển bạn trở lại ứng dụng bạn đang dùng.',
      'Gửi mã xác minh, mã kích hoạt hoặc mã khôi phục mật khẩu qua email hoặc tin nhắn SMS.',
      'Bảo vệ tài khoản: phát hiện và ngăn chặn đăng nhập bất thường, tạm khóa tài khoản khi có quá nhiều lần đăng nhập sai.',
      'Cung cấp cho ứng dụng mà bạn đăng nhập những thông tin cần thiết về bạn (ví dụ: họ tên, email, số điện thoại) trong phạm vi mà ứng dụng đó được phép yêu cầu.',
      'Tuân thủ nghĩa vụ theo quy định của pháp luật.',
    ],
    closing: 'Chúng tôi không bán dữ liệu cá nhân của bạn và không dùng dữ liệu đó cho mục đích quảng cáo.',
  },
  {
    id: 'chia-se',
    heading: '3. Chia sẻ dữ liệu',
    paragraphs: [
      'Dữ liệu của bạn chỉ được chia sẻ với ứng dụng mà bạn chủ động đăng nhập, với các nhà cung cấp dịch vụ gửi email và SMS (chỉ địa chỉ nhận và nội dung tin nhắn) và với cơ quan nhà nước có thẩm quyền khi pháp luật yêu cầu. Các bên nhận dữ liệu phải bảo mật dữ liệu và chỉ dùng đúng mục đích đã thỏa thuận.',
    ],
  },
  {
    id: 'luu-tru',
    heading: '4. Thời gian lưu trữ',
    items: [
      'Thông tin tài khoản được lưu trong suốt thời gian tài khoản còn hoạt động. Khi bạn xóa tài khoản, dữ liệu cá nhân của bạn sẽ bị xóa hoặc ẩn danh hóa, trừ những dữ liệu pháp luật yêu cầu phải giữ lại.',
      'Mã xác minh chỉ có hiệu lực trong 10 phút và chỉ dùng được một lần.',
      'Phiên đăng nhập và mã truy cập hết hạn sau một thời gian ngắn; bạn sẽ cần đăng nhập lại khi phiên hết hạn.',
      'Nhật ký bảo mật được lưu trong thời gian cần thiết để điều tra sự cố và bảo vệ tài khoản của bạn.',
    ],
  },
  {
    id: 'quyen-cua-ban',
    heading: '5. Quyền truy cập và các quyền của bạn',
    paragraphs: ['Bạn có quyền:'],
    items: [
      'Xem thông tin cá nhân của mình trong trang Tài khoản của tôi.',
      'Chỉnh sửa họ tên, ngày sinh, giới tính, ảnh đại diện, email và số điện thoại.',
      'Bật hoặc tắt xác minh 2 bước, thêm hoặc xóa thiết bị đăng nhập.',
      'Xóa tài khoản bất cứ lúc nào.',
      'Rút lại sự đồng ý, phản đối hoặc yêu cầu hạn chế việc xử lý dữ liệu của mình trong phạm vi pháp luật cho phép.',
    ],
    closing: 'Trong tài khoản, chỉ bạn mới xem và thay đổi được thông tin của chính mình. Nhân viên vận hành chỉ truy cập dữ liệu khi cần để hỗ trợ bạn hoặc xử lý sự cố.',
  },
  {
    id: 'bao-mat',
    heading: '6. Bảo mật và giữ bí mật thông tin',
    items: [
      'Kết nối giữa trình duyệt của bạn và máy chủ được mã hóa bằng HTTPS.',
      'Mật khẩu và mã xác minh không bao giờ được lưu ở dạng đọc được và không xuất hiện trong nhật ký hệ thống.',
      'Số lần thử đăng nhập và gửi mã được giới hạn để chống dò mật khẩu.',
      'Xác minh 2 bước và đăng nhập bằng thiết bị (khóa bảo mật, vân tay, khuôn mặt) giúp tài khoản của bạn an toàn hơn; chúng tôi khuyến khích bạn bật các tính năng này.',
      'Những người được phép truy cập dữ liệu đều có nghĩa vụ giữ bí mật.',
    ],
    closing: 'Nếu phát hiện sự cố ảnh hưởng đến dữ liệu của bạn, chúng tôi sẽ thông báo cho bạn và cơ quan có thẩm quyền theo quy định của pháp luật.',
  },
  {
    id: 'cookie',
    heading: '7. Cookie và bộ nhớ trình duyệt',
    paragraphs: [
      'Chúng tôi dùng cookie để duy trì phiên đăng nhập và bảo vệ bạn khỏi các yêu cầu giả mạo. Lựa chọn ngôn ngữ của bạn được lưu trong bộ nhớ của trình duyệt. Chúng tôi không dùng cookie quảng cáo.',
    ],
  },
  {
    id: 'thay-doi',
    heading: '8. Thay đổi chính sách',
    paragraphs: [
      'Chúng tôi có thể cập nhật chính sách này khi dịch vụ hoặc quy định pháp luật thay đổi. Ngày cập nhật gần nhất luôn được ghi ở đầu trang. Với những thay đổi quan trọng, chúng tôi sẽ thông báo cho bạn trước khi áp dụng.',
    ],
  },
  {
    id: 'lien-he',
    heading: '9. Liên hệ',
    paragraphs: [
      'Nếu bạn có câu hỏi về chính sách này hoặc muốn thực hiện các quyền của mình, vui lòng liên hệ bộ phận hỗ trợ của ứng dụng mà bạn dùng để đăng nhập hoặc của đơn vị vận hành dịch vụ. Chúng tôi sẽ phản hồi trong thời gian sớm nhất.',
    ],
  },
];
