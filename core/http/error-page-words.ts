import type { PageLanguage } from './page-language.js';

/** Why a short URL leads nowhere, as its page tells it. */
export type PageReason = 'not_found' | 'expired' | 'disabled' | 'not_yet_valid' | 'used_up';

export interface PageWords {
  /** The tab's title and the page's heading. */
  heading: string;
  /** The sentence under the heading; `address` and `date` arrive as escaped HTML. */
  explain(address: string, date: string): string;
  /** What the visitor can do now. */
  advice: string;
}

interface LanguageWords {
  reasons: Record<PageReason, PageWords>;
  /** The link to the web app at `/`. */
  home: string;
  /** Under the product's name: what Linklet is, so a stranger knows whose page this is. */
  tagline: string;
}

const ASK = 'Ask whoever shared it for a new link.';
const KO_ASK = '링크를 보낸 사람에게 새 링크를 요청하세요.';

/** Every word the short-URL pages show, in each language they speak. */
export const ERROR_PAGE_WORDS: Record<PageLanguage, LanguageWords> = {
  en: {
    home: 'Go to Linklet',
    tagline: 'Short links you host yourself',
    reasons: {
      not_found: {
        heading: 'There is no link here',
        explain: (address) => `No short link has the address ${address}.`,
        advice: `Check it for a typo. ${ASK}`,
      },
      expired: {
        heading: 'This link has expired',
        explain: (address, date) => `The short link ${address} expired on ${date}.`,
        advice: ASK,
      },
      disabled: {
        heading: 'This link was turned off by its owner',
        explain: (address) => `The short link ${address} no longer leads anywhere.`,
        advice: 'If you still need it, ask whoever shared it.',
      },
      not_yet_valid: {
        heading: 'This link is not open yet',
        explain: (address, date) => `The short link ${address} opens on ${date}.`,
        advice: 'Come back then, or ask whoever shared it.',
      },
      used_up: {
        heading: 'This link has had all its visits',
        explain: (address) => `The short link ${address} was opened as many times as its owner allowed.`,
        advice: ASK,
      },
    },
  },
  ko: {
    home: 'Linklet으로 가기',
    tagline: '직접 운영하는 짧은 링크',
    reasons: {
      not_found: {
        heading: '이 주소에는 링크가 없습니다',
        explain: (address) => `${address} 주소의 짧은 링크는 없습니다.`,
        advice: `주소에 오타가 없는지 확인하세요. ${KO_ASK}`,
      },
      expired: {
        heading: '만료된 링크입니다',
        explain: (address, date) => `짧은 링크 ${address}은(는) ${date}에 만료되었습니다.`,
        advice: KO_ASK,
      },
      disabled: {
        heading: '소유자가 사용을 중지한 링크입니다',
        explain: (address) => `짧은 링크 ${address}은(는) 더 이상 어디로도 연결되지 않습니다.`,
        advice: '아직 필요하다면 링크를 보낸 사람에게 문의하세요.',
      },
      not_yet_valid: {
        heading: '아직 열리지 않은 링크입니다',
        explain: (address, date) => `${address} 주소의 짧은 링크는 ${date}부터 열립니다.`,
        advice: '그때 다시 열거나 링크를 보낸 사람에게 문의하세요.',
      },
      used_up: {
        heading: '방문 횟수를 모두 사용한 링크입니다',
        explain: (address) => `${address} 주소의 짧은 링크는 소유자가 허용한 방문 횟수만큼 이미 열렸습니다.`,
        advice: KO_ASK,
      },
    },
  },
};
