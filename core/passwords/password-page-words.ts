import type { PageLanguage } from '../http/page-language.js';

/**
 * Why the password page is shown again: a wrong or empty password, too many tries, or a form
 * another site's page posted (not checked).
 */
export type PasswordPageProblem = 'wrong' | 'missing' | 'too_many' | 'elsewhere';

export interface PasswordPageWords {
  heading: string;
  /** `address` arrives as escaped HTML. */
  explain(address: string): string;
  label: string;
  submit: string;
  advice: string;
  /** `seconds`: how long to wait, for `too_many`. */
  problems: Record<PasswordPageProblem, (seconds: number) => string>;
}

/** Every word of the password page, in each language the short-URL pages speak. */
export const PASSWORD_PAGE_WORDS: Record<PageLanguage, PasswordPageWords> = {
  en: {
    heading: 'This link is protected by a password',
    explain: (address) => `Enter the password of ${address} to open it.`,
    label: 'Password',
    submit: 'Open link',
    advice: 'If you do not have it, ask whoever shared the link.',
    problems: {
      wrong: () => 'That password is not right. Check it and try again.',
      missing: () => 'Enter the password, then choose Open link.',
      too_many: (seconds) => `Too many tries. Wait ${seconds} seconds, then try again.`,
      elsewhere: () => 'The password was sent from another page, so it was not checked. Enter it here.',
    },
  },
  ko: {
    heading: '비밀번호로 보호된 링크입니다',
    explain: (address) => `${address} 링크를 열려면 비밀번호를 입력하세요.`,
    label: '비밀번호',
    submit: '링크 열기',
    advice: '비밀번호를 모르면 링크를 보낸 사람에게 문의하세요.',
    problems: {
      wrong: () => '비밀번호가 맞지 않습니다. 확인하고 다시 입력하세요.',
      missing: () => '비밀번호를 입력한 뒤 링크 열기를 누르세요.',
      too_many: (seconds) => `시도가 너무 많습니다. ${seconds}초 후에 다시 시도하세요.`,
      elsewhere: () => '다른 페이지에서 보낸 비밀번호라 확인하지 않았습니다. 여기에 입력하세요.',
    },
  },
};
